import { defineConfig } from "vitest/config";

// The CLI conformance suite: real pinned CLIs against the loopback model server. Slow and
// process-heavy, so it is its own task (`pnpm test:cli`), never part of the fast `test` task.
export default defineConfig({
  test: {
    include: ["src/cli/**/*.cli.test.ts"],
    globalSetup: ["src/cli/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores shared by the team: one CLI at a time keeps timings honest.
    fileParallelism: false,
  },
});
