import { chmod, cp, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { DebateState } from "@debatekit/core";
import { applyArguments, applyJudgment, renderArgument } from "@debatekit/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitStep, writeDerivedFiles } from "./commit.js";
import type { DebateFolder } from "./read.js";
import { readDebateFolder } from "./read.js";
import {
  DIALECTIC_DIR,
  hashFolder,
  makeTempDir,
  sampleState,
  writeStateFolder,
} from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

function unwrap<T>(result: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value;
}

function judge(
  state: DebateState,
  exchange: number,
  judgment: Parameters<typeof applyJudgment>[2],
  at: string,
) {
  return unwrap(applyJudgment(state, exchange, judgment, at));
}

/** The judgment of exchange 1 on sampleState(): scores both rebuttals and rescores prop_000a. */
function judged(state: DebateState): DebateState {
  return judge(
    state,
    1,
    {
      scores: [
        { argument_id: "prop_001", score: 0.2, reasoning: "Lands its attack." },
        { argument_id: "opp_001", score: -0.2, reasoning: "Restates itself." },
      ],
      rescores: [
        { argument_id: "prop_000a", old_score: 0.3, new_score: 0.1, reasoning: "Undercut by opp_001." },
      ],
    },
    "2026-11-21T11:00:00Z",
  );
}

/** The arguments of exchange 2, rendered by core as the runner would. */
function argued(state: DebateState): DebateState {
  const draft = (title: string, target: string) => ({
    title,
    claim: `${title}.`,
    grounds: [{ source: "A study", content: "It found ---\n---\nthings.", relevance: "Direct." }],
    warrant: "Because.",
    attacks: [{ target_id: target, attack_type: "grounds_attack" as const, content: "Wrong data." }],
  });
  return unwrap(
    applyArguments(state, 2, {
      proposition: [
        renderArgument(draft("Prop two", "opp_001"), { id: "prop_002", side: "prop", exchange: 2 }),
      ],
      opposition: [renderArgument(draft("Opp two", "prop_001"), { id: "opp_002", side: "opp", exchange: 2 })],
    }),
  );
}

/** The judgment of exchange 2 on argued(judged(sampleState())). */
function judgedAgain(state: DebateState): DebateState {
  const scores = [
    { argument_id: "prop_002", score: 0.1, reasoning: "Holds." },
    { argument_id: "opp_002", score: -0.1, reasoning: "Holds less." },
  ];
  return judge(state, 2, { scores }, "2026-11-21T12:00:00Z");
}

async function readFolder(): Promise<DebateFolder> {
  return unwrap(await readDebateFolder(dir));
}

describe("commitStep", () => {
  it("writes a judgment step: scores.json, the graph, then debate.md last; the folder reads as the next state", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    const next = judged(folder.state);
    const written: string[] = [];
    const committed = await commitStep(folder, next, {
      beforeWrite: (p) => void written.push(path.relative(dir, p)),
    });
    expect(written).toEqual([".debate/pending-step.json", "scores.json", "argument-graph.mmd", "debate.md"]);
    expect((await readFolder()).state).toEqual(next);
    expect(committed.state).toEqual(next);
    expect(await readdir(path.join(dir, ".debate"))).toEqual([]);
    const text = await readFile(path.join(dir, "debate.md"), "utf8");
    expect(text).toMatch(
      /^---\ndebate_id: sample\nformat: formal\nexchanges: 3\ncurrent_exchange: 2\ncurrent_phase: awaiting_arguments\n/,
    );
    expect(await readFile(path.join(dir, "argument-graph.mmd"), "utf8")).toContain("prop_001");
  });

  it("writes an arguments step: only the new argument files, the graph, then debate.md", async () => {
    await writeStateFolder(dir, sampleState());
    const afterJudgment = await commitStep(await readFolder(), judged((await readFolder()).state));
    const next = argued(afterJudgment.state);
    const written: string[] = [];
    await commitStep(afterJudgment, next, { beforeWrite: (p) => void written.push(path.relative(dir, p)) });
    expect(written).toEqual([
      "arguments/opp_002.md",
      "arguments/prop_002.md",
      "argument-graph.mmd",
      "debate.md",
    ]);
    expect((await readFolder()).state).toEqual(next);
  });

  for (const step of ["judgment", "arguments"] as const) {
    it(`leaves the previous committed state when a ${step} step is interrupted before each of its writes, and a re-run succeeds`, async () => {
      await writeStateFolder(dir, sampleState());
      let start = await readFolder();
      if (step === "arguments") start = await commitStep(start, judged(start.state));
      const next = step === "judgment" ? judged(start.state) : argued(start.state);
      const snapshot = await hashFolder(dir);
      const writes = 4;
      for (let failAt = 0; failAt < writes; failAt++) {
        const { dir: copy, cleanup: drop } = await makeTempDir();
        try {
          await cp(dir, copy, { recursive: true });
          const folder = unwrap(await readDebateFolder(copy));
          const crash = new Error(`crash before write ${failAt}`);
          await expect(
            commitStep(folder, next, {
              beforeWrite: (_p, index) => {
                if (index === failAt) throw crash;
              },
            }),
          ).rejects.toBe(crash);
          const after = unwrap(await readDebateFolder(copy));
          expect(after.state).toEqual(start.state);
          // Re-running the same step from what is on disk now commits it.
          await commitStep(after, next);
          expect(unwrap(await readDebateFolder(copy)).state).toEqual(next);
        } finally {
          await drop();
        }
      }
      expect(await hashFolder(dir)).toEqual(snapshot);
    });
  }

  it("refuses with DEBATE_PHASE_MISMATCH when the step was already committed (a second run is a no-op)", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    await commitStep(folder, judged(folder.state));
    const snapshot = await hashFolder(dir);
    await expect(commitStep(folder, judged(folder.state))).rejects.toMatchObject({
      code: "DEBATE_PHASE_MISMATCH",
      file: "debate.md",
      message: expect.stringContaining("expected exchange 1 in phase awaiting_judgment"),
    });
    expect(await hashFolder(dir)).toEqual(snapshot);
  });

  it("refuses an invalid next state before writing anything", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    const snapshot = await hashFolder(dir);
    const bad = judged(folder.state);
    (bad.frontmatter as { current_phase: string }).current_phase = "celebrating";
    await expect(commitStep(folder, bad)).rejects.toMatchObject({
      code: "STATE_INVALID",
      file: "debate.md",
      field: "current_phase",
    });
    const badArgument = argued({ ...judged(folder.state) });
    (badArgument.arguments.at(-1)!.frontmatter as { id: string }).id = "../../escape";
    await expect(commitStep(folder, badArgument)).rejects.toMatchObject({ code: "STATE_INVALID" });
    const rewrite = structuredClone(folder.state);
    rewrite.arguments[0]!.body = "changed\n";
    await expect(commitStep(folder, rewrite)).rejects.toMatchObject({ code: "ARGUMENT_REWRITE" });
    // Only the score records a step adds or changes are checked against the schema: a bad one is
    // refused whether it is new or a changed committed record, and named by its field.
    for (const id of ["prop_001", "prop_000a"]) {
      const badScore = judged(folder.state);
      badScore.scores[id] = { ...badScore.scores[id]!, current_score: 5 };
      await expect(commitStep(folder, badScore)).rejects.toMatchObject({
        code: "STATE_INVALID",
        file: "scores.json",
        field: expect.stringContaining(`${id}`),
      });
    }
    expect(await hashFolder(dir)).toEqual(snapshot);
  });

  it("with derivedFiles: false leaves the graph to writeDerivedFiles, which brings it up to date once", async () => {
    await writeStateFolder(dir, sampleState());
    const graph = path.join(dir, "argument-graph.mmd");
    const before = await readFile(graph, "utf8").catch(() => null);
    const written: string[] = [];
    const first = await commitStep(await readFolder(), judged((await readFolder()).state), {
      derivedFiles: false,
      beforeWrite: (p) => void written.push(path.relative(dir, p)),
    });
    const second = await commitStep(first, argued(first.state), { derivedFiles: false });
    expect(written).not.toContain("argument-graph.mmd");
    expect(await readFile(graph, "utf8").catch(() => null)).toBe(before);
    const done = await writeDerivedFiles(second);
    expect(await readFile(graph, "utf8")).toContain("prop_002");
    expect(done.derivedTexts?.["argument-graph.mmd"]).toBe(await readFile(graph, "utf8"));
    // The folder as committed reads the same either way.
    expect((await readFolder()).state).toEqual(second.state);
  });

  it("writes a derived file without reading it when its text changed, and rewrites one edited on disk even when the step leaves it as it was", async () => {
    await writeStateFolder(dir, sampleState());
    const graph = path.join(dir, "argument-graph.mmd");
    const first = await commitStep(await readFolder(), judged((await readFolder()).state), {
      renderGraph: () => "graph one",
    });
    expect(await readFile(graph, "utf8")).toBe("graph one\n");
    // The step renders the graph it left: nothing to write...
    const same = argued(first.state);
    const written: string[] = [];
    const second = await commitStep(first, same, {
      renderGraph: () => "graph one",
      beforeWrite: (p) => void written.push(path.relative(dir, p)),
    });
    expect(written).not.toContain("argument-graph.mmd");
    // ...unless a person changed (or removed) the file meanwhile: it is read, and written back.
    await writeFile(graph, "edited by hand\n");
    const third = judgedAgain(second.state);
    await commitStep(second, third, { renderGraph: () => "graph one" });
    expect(await readFile(graph, "utf8")).toBe("graph one\n");
  });

  it("compares committed arguments in memory: equal copies pass, any changed field is a rewrite", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    await commitStep(folder, folder.state);
    const snapshot = await hashFolder(dir);
    const claim = structuredClone(folder.state);
    claim.arguments[1]!.frontmatter.claim = "A different claim.";
    await expect(commitStep(folder, claim)).rejects.toMatchObject({
      code: "ARGUMENT_REWRITE",
      file: `arguments/${folder.state.arguments[1]!.frontmatter.id}.md`,
    });
    const attack = structuredClone(folder.state);
    attack.arguments[0]!.frontmatter.attacks = [
      ...(attack.arguments[0]!.frontmatter.attacks ?? []),
      { target_id: "opp_000a", type: "grounds_attack" },
    ];
    await expect(commitStep(folder, attack)).rejects.toMatchObject({ code: "ARGUMENT_REWRITE" });
    expect(await hashFolder(dir)).toEqual(snapshot);
    // A deep copy, and one with an `undefined` key (the same file text), are the same arguments.
    const copy = structuredClone(folder.state);
    (copy.arguments[0]!.frontmatter as unknown as Record<string, unknown>).note = undefined;
    const writes: string[] = [];
    await commitStep(await readFolder(), copy, { beforeWrite: (p) => void writes.push(p) });
    expect(writes).toEqual([]);
    expect(await hashFolder(dir)).toEqual(snapshot);
  });

  it("keeps what a person changed in debate.md while the step ran, applying only the step's own changes", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    const next = judged(folder.state);
    // Meanwhile, in an editor: more exchanges, a comment, another judge model, a note under the motion.
    const file = path.join(dir, "debate.md");
    const edited = (await readFile(file, "utf8"))
      .replace("exchanges: 3\n", "exchanges: 8 # raised while it ran\n")
      .replace(/( {2}judge:\n {4}adapter: replay\n)/, "$1    model: bigger\n")
      .replace(/\n$/, "\n\nA note added by hand.\n");
    await writeFile(file, edited);
    const committed = await commitStep(folder, next);
    const text = await readFile(file, "utf8");
    expect(text).toBe(
      edited
        .replace("current_exchange: 1\n", "current_exchange: 2\n")
        .replace("current_phase: awaiting_judgment\n", "current_phase: awaiting_arguments\n")
        .replace(/cumulative_scores:[\s\S]*?\n---/, (block) => {
          const c = next.frontmatter.cumulative_scores!;
          return block
            .replace(
              /(proposition:\n {4}total: )\S+\n {4}count: \d+/,
              `$1${c.proposition.total}\n    count: ${c.proposition.count}`,
            )
            .replace(
              /(opposition:\n {4}total: )\S+\n {4}count: \d+/,
              `$1${c.opposition.total}\n    count: ${c.opposition.count}`,
            );
        }),
    );
    const reread = (await readFolder()).state;
    expect(reread.frontmatter).toMatchObject({
      exchanges: 8,
      current_exchange: 2,
      seats: { judge: { model: "bigger" } },
    });
    expect(committed.state).toEqual(reread);
  });

  it("writes nothing when nothing changed", async () => {
    await writeStateFolder(dir, sampleState());
    const folder = await readFolder();
    await commitStep(folder, folder.state); // first call writes the graph (there was none)
    const snapshot = await hashFolder(dir);
    const writes: string[] = [];
    await commitStep(await readFolder(), folder.state, { beforeWrite: (p) => void writes.push(p) });
    expect(writes).toEqual([]);
    expect(await hashFolder(dir)).toEqual(snapshot);
  });

  it("keeps a dialectic folder's JSON style and key order when it continues", async () => {
    await cp(DIALECTIC_DIR, dir, { recursive: true });
    for (const entry of await readdir(dir, { recursive: true })) await chmod(path.join(dir, entry), 0o755);
    await chmod(dir, 0o755);
    const folder = await readFolder();
    const original = await readFile(path.join(dir, "debate.md"), "utf8");
    const draft = (title: string) => ({
      title,
      claim: `${title}.`,
      grounds: [{ source: "S", content: "C", relevance: "R" }],
      warrant: "W",
    });
    // dialectic folders have no `exchanges` (complete as they stand); raising it lets the debate continue.
    const seats: NonNullable<DebateState["frontmatter"]["seats"]> = {
      proposition: { adapter: "replay" },
      opposition: { adapter: "replay" },
      judge: { adapter: "replay" },
    };
    const raised = { ...folder.state, frontmatter: { ...folder.state.frontmatter, exchanges: 6, seats } };
    const next = unwrap(
      applyArguments(raised, 5, {
        proposition: [renderArgument(draft("P5"), { id: "prop_005", side: "prop", exchange: 5 })],
        opposition: [renderArgument(draft("O5"), { id: "opp_005", side: "opp", exchange: 5 })],
      }),
    );
    await commitStep(folder, next);
    const text = await readFile(path.join(dir, "debate.md"), "utf8");
    // Same keys in the same order, the new ones last, the body untouched, still JSON.
    const end = (t: string) => t.indexOf("\n}\n") + 3;
    expect(text.slice(end(text))).toBe(original.slice(end(original)));
    expect(Object.keys(JSON.parse(text.slice(0, end(text))))).toEqual([
      ...Object.keys(JSON.parse(original.slice(0, end(original)))),
      "exchanges",
      "seats",
    ]);
    expect(text.startsWith(original.slice(0, original.indexOf('"awaiting_arguments"')))).toBe(true);
    expect(await readFile(path.join(dir, "arguments", "prop_005.md"), "utf8")).toMatch(
      /^\{\n {2}"id": "prop_005",\n/,
    );
    expect((await readFolder()).state).toEqual(next);
  });
});
