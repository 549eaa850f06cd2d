import { defineConfig } from "vitest/config";

// CI runs every package's tests at once on 2 cores; real processes and file systems under that
// load can take well over vitest's default 5 s without anything being wrong.
export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 30_000 },
});
