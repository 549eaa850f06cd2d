import { lstat, readFile, symlink, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ARGUMENT_INDEX_FILE,
  readArgumentIndex,
  refreshArgumentIndex,
  writeArgumentIndex,
} from "./argument-index.js";
import { readArgument, readDebateFolder } from "./read.js";
import { makeTempDir, sampleState, writeStateFolder } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

/** Reads the folder, writes the index of that read, and reads again (now from the index). */
async function indexed() {
  const first = await readDebateFolder(dir);
  if (!first.ok) throw new Error(JSON.stringify(first.errors));
  expect(first.value.argumentIndexCurrent).toBe(false);
  await writeArgumentIndex(dir, first.value.argumentIndex!);
  const second = await readDebateFolder(dir);
  if (!second.ok) throw new Error(JSON.stringify(second.errors));
  return { first: first.value, second: second.value };
}

describe("the argument index", () => {
  it("gives exactly the state a full parse gives, and is used when every file is unchanged", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    const { first, second } = await indexed();
    expect(second.argumentIndexCurrent).toBe(true);
    expect(second.state).toEqual(first.state);
    expect(second.state).toEqual(state);
    expect(Object.keys((await readArgumentIndex(dir)).arguments).sort()).toEqual(
      state.arguments.map((a) => a.frontmatter.id).sort(),
    );
  });

  it("is not used for a file edited since, even with the same size and modification time", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    await indexed();
    const file = path.join(dir, `arguments/${state.arguments[0]!.frontmatter.id}.md`);
    const before = await lstat(file);
    const text = await readFile(file, "utf8");
    const title = state.arguments[0]!.frontmatter.title;
    const edited = title.replace(/^./, (c) => (c === "X" ? "Y" : "X"));
    expect(edited.length).toBe(title.length);
    await writeFile(file, text.replace(title, edited));
    // Same size, modification time set back: only the change time (which nobody can set) differs.
    await utimes(file, before.atime, before.mtime);
    expect((await lstat(file)).size).toBe(before.size);
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.value.argumentIndexCurrent).toBe(false);
    expect(
      read.value.state.arguments.find((a) => a.frontmatter.id === state.arguments[0]!.frontmatter.id),
    ).toMatchObject({ frontmatter: { title: edited } });
  });

  it("is ignored when it is torn, or holds an entry the schema refuses", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    await indexed();
    const target = path.join(dir, ARGUMENT_INDEX_FILE);
    const good = await readFile(target, "utf8");
    await writeFile(target, good.slice(0, good.length / 2));
    const torn = await readDebateFolder(dir);
    expect(torn.ok && torn.value.state).toEqual(state);
    const id = state.arguments[0]!.frontmatter.id;
    const data = JSON.parse(good);
    data.arguments[id].frontmatter.side = "neither";
    await writeFile(target, JSON.stringify(data));
    const refused = await readDebateFolder(dir);
    if (!refused.ok) throw new Error(JSON.stringify(refused.errors));
    expect(refused.value.state).toEqual(state);
    expect(refused.value.argumentIndexCurrent).toBe(false);
  });

  it("never stands in for a file that is now a link (the link is refused as before)", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    await indexed();
    const id = state.arguments[0]!.frontmatter.id;
    const file = path.join(dir, `arguments/${id}.md`);
    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-outside.md`);
    await writeFile(outside, await readFile(file, "utf8"));
    try {
      await unlink(file);
      await symlink(outside, file);
      const read = await readDebateFolder(dir);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.errors[0]!.code).toBe("PATH_ESCAPE");
    } finally {
      await unlink(outside);
    }
  });

  it("refreshArgumentIndex keeps unchanged entries and parses only the files that changed", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    const { second } = await indexed();
    const ids = state.arguments.map((a) => a.frontmatter.id);
    const parsed: string[] = [];
    const read = (id: string) => {
      parsed.push(id);
      return readArgument(dir, id);
    };
    const same = await refreshArgumentIndex(dir, ids, second.argumentIndex!, read);
    expect(parsed).toEqual([]);
    expect(same).toEqual(second.argumentIndex);
    const file = path.join(dir, `arguments/${ids[1]}.md`);
    await writeFile(file, `${await readFile(file, "utf8")}\n`);
    const after = await refreshArgumentIndex(dir, ids, second.argumentIndex!, read);
    expect(parsed).toEqual([ids[1]]);
    expect(after.arguments[ids[1]!]!.stat).not.toBe(second.argumentIndex!.arguments[ids[1]!]!.stat);
  });
});
