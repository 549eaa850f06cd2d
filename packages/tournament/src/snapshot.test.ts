import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFolderSnapshot, writeFolderSnapshot } from "./snapshot.js";

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), "snapshot-"));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe("writeFolderSnapshot", () => {
  it("replaces the folder whole: the new files, none of the old ones, nothing left beside it", async () => {
    const dir = path.join(parent, "m01");
    await writeFolderSnapshot(dir, { "debate.md": "old", "turns/1.md": "a", "gone.md": "x" });
    const next = { "debate.md": "new", "turns/1.md": "a", "turns/2.md": "b", ".debate/journal/1.json": "{}" };
    await writeFolderSnapshot(dir, next);
    expect(await readFolderSnapshot(dir)).toEqual(next);
    expect(await readdir(parent)).toEqual(["m01"]);
  });

  it("refuses a path out of the folder before touching it", async () => {
    const dir = path.join(parent, "m01");
    await writeFolderSnapshot(dir, { "debate.md": "kept" });
    await expect(writeFolderSnapshot(dir, { "debate.md": "new", "../escape.md": "x" })).rejects.toMatchObject(
      {
        code: "PATH_ESCAPE",
      },
    );
    expect(await readFolderSnapshot(dir)).toEqual({ "debate.md": "kept" });
    expect(await readdir(parent)).toEqual(["m01"]);
  });

  it("a failed write leaves the old folder as it was and no staged copy", async () => {
    const dir = path.join(parent, "m01");
    await writeFolderSnapshot(dir, { "debate.md": "kept" });
    // A file and a folder of the same name cannot both be written: the staging fails midway.
    await expect(
      writeFolderSnapshot(dir, { "debate.md": "new", a: "file", "a/b": "inside" }),
    ).rejects.toThrow();
    expect(await readFolderSnapshot(dir)).toEqual({ "debate.md": "kept" });
    expect(await readdir(parent)).toEqual(["m01"]);
  });
});
