import { defineConfig } from "vitest/config";

// Building the cl100k_base tokenizer takes 0.5-2 s on an idle machine and much longer on a
// loaded 2-core CI runner, which runs every package's tests at once: the default 5 s is too tight.
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
});
