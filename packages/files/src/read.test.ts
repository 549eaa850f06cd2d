import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serializeArgumentFile } from "./documents.js";
import { readDebateFolder } from "./read.js";
import {
  hashFolder,
  makeTempDir,
  sampleArgument,
  sampleState,
  writeStateFolder,
} from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

describe("readDebateFolder", () => {
  it.each(["yaml", "json"] as const)(
    "reads a %s folder into exactly the state that was written",
    async (style) => {
      const state = sampleState();
      await writeStateFolder(dir, state, style);
      const read = await readDebateFolder(dir);
      if (!read.ok) throw new Error(JSON.stringify(read.errors));
      const { dir: at, state: got, styles } = read.value;
      expect({ dir: at, state: got, styles }).toEqual({
        dir,
        state,
        styles: { debate: style, arguments: style },
      });
      expect(read.value.debateText).toBe(await readFile(path.join(dir, "debate.md"), "utf8"));
    },
  );

  it("ignores argument files beyond the committed marker, and unknown files", async () => {
    const state = sampleState();
    await writeStateFolder(dir, state);
    const before = await hashFolder(dir);
    // Leftovers of an uncommitted step (exchange 2) and an editor backup are not part of the state.
    await writeFile(
      path.join(dir, "arguments", "prop_002.md"),
      serializeArgumentFile({ ...sampleArgument("prop_002"), style: "yaml" }),
    );
    await writeFile(path.join(dir, "arguments", "prop_002.md~"), "junk");
    await writeFile(path.join(dir, "arguments", "notes.md"), "not an argument");
    await writeFile(path.join(dir, "notes.txt"), "\0binary\0");
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.value.state).toEqual(state);
    expect(Object.keys(before).length).toBeLessThan(Object.keys(await hashFolder(dir)).length);
  });

  it("ignores the arguments of the current exchange while it still awaits arguments", async () => {
    const state = sampleState();
    state.frontmatter.current_phase = "awaiting_arguments";
    await writeStateFolder(dir, state);
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.value.state.arguments.map((a) => a.frontmatter.id)).toEqual([
      "opp_000a",
      "opp_000b",
      "opp_000c",
      "prop_000a",
      "prop_000b",
      "prop_000c",
    ]);
  });

  it("treats an absent scores.json as no scores and accepts `---` lines inside argument bodies", async () => {
    const state = sampleState();
    state.frontmatter.current_exchange = 0;
    state.frontmatter.current_phase = "awaiting_judgment";
    state.scores = {};
    state.frontmatter.cumulative_scores = {
      proposition: { total: 0, count: 0 },
      opposition: { total: 0, count: 0 },
    };
    state.arguments = state.arguments.filter((a) => a.frontmatter.exchange === 0);
    state.arguments[0]!.body = '\n## Claim\n\n---\n\nid: opp_999\n---\n{"x": 1}\n';
    await writeStateFolder(dir, state);
    await rm(path.join(dir, "scores.json"));
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.value.state.scores).toEqual({});
    expect(read.value.state.arguments[0]!.body).toBe(state.arguments[0]!.body);
  });

  it("reports every broken file at once, each naming its file and field", async () => {
    await writeStateFolder(dir, sampleState());
    const a = path.join(dir, "arguments", "prop_000a.md");
    await writeFile(a, (await readFile(a, "utf8")).replace("side: prop", "side: neither"));
    await writeFile(path.join(dir, "scores.json"), "{ nope");
    await mkdir(path.join(dir, "arguments", "opp_000b.md.d"), { recursive: true });
    const read = await readDebateFolder(dir);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors.map((e) => [e.code, e.path])).toEqual([
      ["ARGUMENT_FIELD_INVALID", "arguments/prop_000a.md:side"],
      ["SCORES_INVALID_JSON", "scores.json:(root)"],
    ]);
    expect(read.errors[0]!.message).toContain('"neither"');
  });
});
