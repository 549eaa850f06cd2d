import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { crossfireFormat, defineFormat, formatOfState, registerFormat } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTournament, matchFolder, readTournament, sideRoles } from "./folder.js";
import { computeLeaderboard } from "./leaderboard.js";
import { parseMotions } from "./motions.js";
import { readResults } from "./results.js";
import { runTournament } from "./run-local.js";
import { parseEntrants } from "./spec.js";

// Results are read as facts: the format's standing names the winning role (or `tie`), and the
// format's `tournament` sides say which player sat in it.
const examples = fileURLToPath(new URL("../../../examples/", import.meta.url));
const crossfireExample = path.join(examples, "tournament-replay");
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "tournament-results-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const NOW = "2026-11-27T08:00:00.000Z";
const env = () => ({ ...process.env, DEBATEKIT_REPLAY_LOG: path.join(root, "replay-log.jsonl") });

/** A one-exchange formal recording whose judge scores every opening 0: a tie. */
async function formalTieRecording(): Promise<string> {
  const lines = (await readFile(path.join(examples, "ai-review-gate/replay.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { exchange: number; role: string; text: string })
    .filter((e) => e.exchange === 0 && e.role !== "judge");
  const ids = ["prop_000a", "prop_000b", "prop_000c", "opp_000a", "opp_000b", "opp_000c"];
  const judgment = { scores: ids.map((id) => ({ argument_id: id, score: 0, reasoning: "even" })) };
  lines.push({ exchange: 0, role: "judge", text: JSON.stringify(judgment) });
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

describe("a tie", () => {
  it("counts half a win in a formal tournament (equal scores) and in a crossfire one (a split panel)", async () => {
    // formal: two players, both sides, every debate scored even.
    const recordings = path.join(root, "formal-recordings");
    await mkdir(recordings);
    const motions = parseMotions('{"motion": "Should every change get a second review?"}\n', "motions.jsonl");
    const players = parseEntrants("replay:alice,replay:bob", "--seats");
    for (const id of ["m01-replay-alice-vs-replay-bob", "m01-replay-bob-vs-replay-alice"])
      await writeFile(path.join(recordings, `${id}.jsonl`), await formalTieRecording());
    const formal = path.join(root, "formal");
    await createTournament(formal, {
      motions,
      players,
      judges: parseEntrants("replay", "--judges"),
      format: "formal",
      length: 1,
      replayDir: recordings,
      now: NOW,
    });
    await runTournament(formal, { env: env() });
    const formalResults = await readResults(await readTournament(formal));
    expect(formalResults.map((r) => [r.status, r.winner])).toEqual([
      ["done", "tie"],
      ["done", "tie"],
    ]);
    const formalBoard = computeLeaderboard((await readTournament(formal)).frontmatter, formalResults);
    expect(formalBoard.headToHead.score).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(formalBoard.sides.first).toEqual({ score: 1, games: 2 });

    // crossfire: a panel of two judges, one of whom picks the other side in the upsets: those split.
    const crossfire = path.join(root, "crossfire");
    await createTournament(crossfire, {
      motions: parseMotions(
        await readFile(path.join(crossfireExample, "motions.jsonl"), "utf8"),
        "motions.jsonl",
      ),
      players: parseEntrants("replay:alice,replay:bob,replay:carol", "--seats"),
      judges: parseEntrants("replay:j1,replay:j2", "--judges"),
      panel: {},
      format: "crossfire",
      length: 1,
      replayDir: path.join(crossfireExample, "panel-recordings"),
      now: NOW,
    });
    await runTournament(crossfire, { env: env() });
    const results = await readResults(await readTournament(crossfire));
    const ties = results.filter((r) => r.winner === "tie");
    expect(results.every((r) => r.status === "done")).toBe(true);
    expect(ties.length).toBeGreaterThan(0);
    for (const tie of ties) {
      const read = await readDebateFolder(matchFolder(crossfire, tie.match.id));
      expect(read.ok && formatOfState(read.value.state).standing(read.value.state).winner).toBe("tie");
    }
    const board = computeLeaderboard((await readTournament(crossfire)).frontmatter, results);
    const decided = results.length - ties.length;
    // Every debate hands out one point: a win 1 to the winner, a tie 1/2 to each.
    expect(board.sides.first.games).toBe(results.length);
    expect(board.headToHead.score.flat().reduce((a, b) => a + b, 0)).toBe(decided + ties.length);
    expect(board.headToHead.score.flat().some((s) => s % 1 === 0.5)).toBe(true);
  }, 120_000);
});

describe("a format registered from outside", () => {
  // crossfire's rules under another name, whose tournament seats the first player as the challenger.
  const duel = defineFormat({
    ...crossfireFormat,
    name: "duel",
    tournament: { first: "challenger", second: "proposer", judge: "judge" },
    validateFrontmatter(data: unknown) {
      const checked = crossfireFormat.validateFrontmatter({ ...(data as object), format: "crossfire" });
      return checked.ok ? { ok: true, value: { ...checked.value, format: "duel" as never } } : checked;
    },
    newDebate(init) {
      const made = crossfireFormat.newDebate(init);
      return made.ok
        ? {
            ok: true,
            value: { ...made.value, frontmatter: { ...made.value.frontmatter, format: "duel" as never } },
          }
        : made;
    },
  });

  it("pairs by its own tournament sides, and its winner's role maps to the player who sat in it", async () => {
    expect(registerFormat(duel).ok).toBe(true);
    expect(sideRoles("duel")).toEqual({ first: "challenger", second: "proposer", judge: "judge" });
    const dir = path.join(root, "duel");
    const { tournament } = await createTournament(dir, {
      motions: parseMotions(
        await readFile(path.join(crossfireExample, "motions.jsonl"), "utf8"),
        "motions.jsonl",
      ),
      players: parseEntrants("replay:alice,replay:bob", "--seats"),
      judges: parseEntrants("replay", "--judges"),
      format: "duel",
      length: 1,
      sides: "one",
      replayDir: path.join(crossfireExample, "recordings"),
      now: NOW,
    });
    const match = tournament.frontmatter.matches[0]!;
    expect([match.first, match.second]).toEqual(["replay:alice", "replay:bob"]);
    const before = await readDebateFolder(matchFolder(dir, match.id));
    const seats = (before.ok ? before.value.state.frontmatter.seats : {}) as Record<
      string,
      { model?: string }
    >;
    expect(before.ok && before.value.state.frontmatter.format).toBe("duel");
    expect([seats.challenger?.model, seats.proposer?.model]).toEqual(["alice", "bob"]);

    await runTournament(dir, { env: env() });
    const [result] = await readResults(await readTournament(dir));
    const after = await readDebateFolder(matchFolder(dir, match.id));
    const winner = after.ok ? formatOfState(after.value.state).standing(after.value.state).winner : undefined;
    expect(winner === "challenger" || winner === "proposer").toBe(true);
    expect(result!.winner).toBe(winner === "challenger" ? "first" : "second");
  }, 120_000);

  it("a format without tournament sides is refused, naming it", () => {
    expect(() => sideRoles("review")).toThrow("the review format has no tournament sides");
    expect(() => sideRoles("nonesuch")).toThrow(/no format "nonesuch"/);
  });
});
