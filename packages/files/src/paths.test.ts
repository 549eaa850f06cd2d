import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveInside } from "./paths.js";
import { makeTempDir } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

describe("resolveInside", () => {
  it("resolves ordinary relative paths, existing or not", () => {
    expect(resolveInside(dir, "arguments/prop_001.md")).toBe(path.join(dir, "arguments", "prop_001.md"));
    expect(resolveInside(dir, "./debate.md")).toBe(path.join(dir, "debate.md"));
    expect(resolveInside(dir, ".debate/journal/x.json")).toBe(path.join(dir, ".debate", "journal", "x.json"));
  });

  it.each([
    ["..", "`..` segment"],
    ["../sibling/debate.md", "`..` segment"],
    ["arguments/../../x", "`..` segment"],
    ["/etc/passwd", "absolute"],
    ["arguments/prop\0.md", "NUL byte"],
    ["..\\x", "backslash"],
    ["", "empty"],
  ])("refuses %j with PATH_ESCAPE (%s)", (relative, why) => {
    expect(() => resolveInside(dir, relative)).toThrow(
      expect.objectContaining({ code: "PATH_ESCAPE", message: expect.stringContaining(why) }),
    );
  });

  it("refuses symlinks that lead outside, also for paths below them that do not exist yet", async () => {
    const { dir: outside, cleanup: drop } = await makeTempDir("debatekit-outside-");
    try {
      await symlink(outside, path.join(dir, "arguments"));
      await writeFile(path.join(outside, "debate.md"), "---\n---\n");
      await symlink(path.join(outside, "debate.md"), path.join(dir, "debate.md"));
      for (const relative of ["arguments", "arguments/prop_001.md", "arguments/new/deeper.md", "debate.md"]) {
        expect(() => resolveInside(dir, relative)).toThrow(
          expect.objectContaining({ code: "PATH_ESCAPE", message: expect.stringContaining("symbolic link") }),
        );
      }
    } finally {
      await drop();
    }
  });

  it("accepts symlinks that stay inside the folder", async () => {
    await mkdir(path.join(dir, "real"));
    await symlink(path.join(dir, "real"), path.join(dir, "alias"));
    expect(resolveInside(dir, "alias/file.md")).toBe(path.join(dir, "alias", "file.md"));
  });
});
