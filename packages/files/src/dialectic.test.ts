import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { renderArgumentGraph } from "@debatekit/core";
import { describe, expect, it } from "vitest";
import { serializeScores } from "./commit.js";
import {
  parseArgumentFile,
  parseDebateFile,
  serializeArgumentFile,
  serializeDebateFile,
} from "./documents.js";
import { stringifyJson } from "./json-text.js";
import { readDebateFolder } from "./read.js";
import { DIALECTIC_DIR, hashFolder } from "./test-helpers/folder.js";

describe("the dialectic example (halt-ai-development)", () => {
  it("reads without writing anything, and its state is what its files say", async () => {
    const before = await hashFolder(DIALECTIC_DIR);
    const read = await readDebateFolder(DIALECTIC_DIR);
    expect(await hashFolder(DIALECTIC_DIR)).toEqual(before);
    if (!read.ok) throw new Error(JSON.stringify(read.errors, null, 2));
    const { state, styles } = read.value;
    expect(styles).toEqual({ debate: "json", arguments: "json" });
    expect(state.frontmatter.current_exchange).toBe(5);
    expect(state.frontmatter.current_phase).toBe("awaiting_arguments");
    expect(state.frontmatter.exchanges).toBeUndefined();
    expect(state.frontmatter.seats).toBeUndefined();
    expect(state.arguments.map((a) => a.frontmatter.id)).toEqual([
      "opp_000a",
      "opp_000b",
      "opp_000c",
      "prop_000a",
      "prop_000b",
      "prop_000c",
      "opp_001",
      "prop_001",
      "opp_002",
      "prop_002",
      "opp_003",
      "prop_003",
      "opp_004",
      "prop_004",
    ]);
    expect(state.motion.text).toBe(
      "This house would pause the development of artificial general intelligence until robust safety frameworks are established.",
    );
    expect(state.motion.definitions).toMatch(/^- \*\*Artificial General Intelligence \(AGI\)\*\*/);
    expect(state.motion.scope).toMatch(/^This debate concerns ALL frontier AI development/);
    const scoresJson = JSON.parse(await readFile(path.join(DIALECTIC_DIR, "scores.json"), "utf8"));
    expect(state.scores).toEqual(scoresJson);
    // The cumulative scores mirrored in debate.md are the sums of scores.json's current scores.
    const sum = (side: string) =>
      Object.entries(state.scores)
        .filter(([id]) => id.startsWith(side))
        .reduce((t, [, s]) => t + s.current_score, 0);
    expect(sum("prop_")).toBeCloseTo(state.frontmatter.cumulative_scores!.proposition.total, 10);
    expect(sum("opp_")).toBeCloseTo(state.frontmatter.cumulative_scores!.opposition.total, 10);
    expect(state.frontmatter.cumulative_scores).toEqual({
      proposition: { total: 2.05, count: 7 },
      opposition: { total: -2.05, count: 7 },
    });
  });

  it("regenerates its argument graph from the state it reads", async () => {
    const read = await readDebateFolder(DIALECTIC_DIR);
    if (!read.ok) throw new Error("unreadable");
    const graph = await readFile(path.join(DIALECTIC_DIR, "argument-graph.mmd"), "utf8");
    expect(renderArgumentGraph(read.value.state).trimEnd()).toBe(graph.trimEnd());
  });

  it("re-serializes debate.md and scores.json to the original bytes", async () => {
    const debate = await readFile(path.join(DIALECTIC_DIR, "debate.md"), "utf8");
    const parsed = parseDebateFile(debate);
    if (!parsed.ok) throw new Error("unreadable");
    expect(serializeDebateFile(parsed.value)).toBe(debate);
    const scores = await readFile(path.join(DIALECTIC_DIR, "scores.json"), "utf8");
    // dialectic writes scores.json without a final newline; ours always ends with one.
    expect(serializeScores(JSON.parse(scores))).toBe(scores.endsWith("\n") ? scores : `${scores}\n`);
  });

  it("writes scores.json from remembered record texts exactly as a whole serialization", async () => {
    const scores = JSON.parse(await readFile(path.join(DIALECTIC_DIR, "scores.json"), "utf8"));
    const whole = (s: object) => `${stringifyJson(s)}\n`;
    expect(serializeScores(scores)).toBe(whole(scores));
    const [first, second] = Object.keys(scores);
    // A changed record (a new object), then one record object under two ids.
    const changed = { ...scores, [first!]: { ...scores[first!], current_score: 0.99 } };
    expect(serializeScores(changed)).toBe(whole(changed));
    const shared = { ...scores, [second!]: scores[first!] };
    expect(serializeScores(shared)).toBe(whole(shared));
    expect(serializeScores(scores)).toBe(whole(scores));
  });

  it("re-serializes every argument file to its original bytes plus the final newline dialectic leaves out", async () => {
    const dir = path.join(DIALECTIC_DIR, "arguments");
    const names = (await readdir(dir)).sort();
    expect(names).toHaveLength(14);
    for (const name of names) {
      const text = await readFile(path.join(dir, name), "utf8");
      const parsed = parseArgumentFile(text, `arguments/${name}`);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      expect(parsed.value.style).toBe("json");
      const again = serializeArgumentFile(parsed.value);
      expect(text.endsWith("\n")).toBe(false);
      expect(again).toBe(`${text}\n`);
    }
  });
});
