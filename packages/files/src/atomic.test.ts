import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFilesAtomic } from "./atomic.js";
import { makeTempDir } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => cleanup());

describe("writeFilesAtomic", () => {
  it("writes a group of files, replacing what was there", async () => {
    await writeFile(path.join(dir, "b.txt"), "old");
    await writeFilesAtomic([
      { target: path.join(dir, "a.txt"), content: "A\n" },
      { target: path.join(dir, "b.txt"), content: "B\n" },
    ]);
    expect(await readFile(path.join(dir, "a.txt"), "utf8")).toBe("A\n");
    expect(await readFile(path.join(dir, "b.txt"), "utf8")).toBe("B\n");
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("stopped before a rename: earlier files are in place, later ones untouched, no temp file left", async () => {
    await writeFile(path.join(dir, "b.txt"), "old");
    const stop = new Error("crash");
    const seen: number[] = [];
    await expect(
      writeFilesAtomic(
        [
          { target: path.join(dir, "a.txt"), content: "A\n" },
          { target: path.join(dir, "b.txt"), content: "B\n" },
        ],
        (_target, index) => {
          seen.push(index);
          if (index === 8) throw stop;
        },
        7,
      ),
    ).rejects.toBe(stop);
    expect(seen).toEqual([7, 8]);
    expect(await readFile(path.join(dir, "a.txt"), "utf8")).toBe("A\n");
    expect(await readFile(path.join(dir, "b.txt"), "utf8")).toBe("old");
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "b.txt"]);
  });
});
