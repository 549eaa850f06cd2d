import { defineConfig } from "vitest/config";

export default defineConfig({
  // src/cli/** is the CLI conformance suite: its own task (`pnpm test:cli`, vitest.cli.config.ts).
  test: { testTimeout: 120_000, hookTimeout: 120_000, exclude: ["**/node_modules/**", "src/cli/**"] },
});
