import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { debateFingerprint, debateFingerprintSync, inboxFingerprint } from "./fingerprint.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "fingerprint-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("debateFingerprint", () => {
  it("changes on every write, even one that puts back the same text, and on a rename over the file", async () => {
    const file = join(dir, "debate.md");
    expect(await debateFingerprint(dir)).toBe("missing");
    await writeFile(file, "---\nexchanges: 1\n---\n");
    const first = await debateFingerprint(dir);
    expect(debateFingerprintSync(dir)).toBe(first);
    expect(await debateFingerprint(dir)).toBe(first); // reading does not change it

    await new Promise((r) => setTimeout(r, 20)); // past the file system's timestamp granularity
    await writeFile(file, "---\nexchanges: 1\n---\n");
    const rewritten = await debateFingerprint(dir);
    expect(rewritten).not.toBe(first);

    await writeFile(join(dir, "debate.md.tmp"), "---\nexchanges: 1\n---\n");
    await rename(join(dir, "debate.md.tmp"), file);
    const renamed = await debateFingerprint(dir);
    expect(renamed.split(":")[0]).not.toBe(rewritten.split(":")[0]); // a new inode
  });
});

describe("inboxFingerprint", () => {
  it("covers the answer files only, by name and fingerprint", async () => {
    expect(await inboxFingerprint(dir)).toBe(""); // no inbox/ yet
    await mkdir(join(dir, "inbox"));
    await writeFile(join(dir, "inbox", ".e000-judge.json.tmp"), "{}"); // a temp file: not an answer
    await writeFile(join(dir, "inbox", "notes.txt"), "x");
    expect(await inboxFingerprint(dir)).toBe("");
    await writeFile(join(dir, "inbox", "e000-proposition.md"), "answer");
    await writeFile(join(dir, "inbox", "e000-opposition.json"), "{}");
    const both = await inboxFingerprint(dir);
    expect(both.split("\n").map((line) => line.split("=")[0])).toEqual([
      "e000-opposition.json",
      "e000-proposition.md",
    ]);
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(join(dir, "inbox", "e000-opposition.json"), "{ }");
    expect(await inboxFingerprint(dir)).not.toBe(both);
  });
});
