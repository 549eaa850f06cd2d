import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * A fresh temp folder per test (removed after it) and copies of `example` in it: `base()` is the
 * folder, `copy(name)` copies the example to `<base>/<name>` and returns that path.
 */
export function exampleCopies(
  example: string,
  prefix: string,
): { base: () => string; copy: (name: string) => Promise<string> } {
  let base = "";
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });
  return {
    base: () => base,
    copy: async (name) => {
      const dir = join(base, name);
      await cp(example, dir, { recursive: true });
      return dir;
    },
  };
}
