import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseTournamentFile, readTournament, serializeTournamentFile, TOURNAMENT_FILE } from "./folder.js";
import { createGate, pauseOnRateLimit, retryAfterMs } from "./limiter.js";
import { parseMotions } from "./motions.js";
import { planTournament } from "./plan.js";
import { writeTournamentReport } from "./report.js";
import { readResults } from "./results.js";
import { runTournament, type TournamentEvent } from "./run-local.js";
import { createReplayTournament } from "./test-helpers/replay-tournament.js";

const example = fileURLToPath(new URL("../../../examples/tournament-replay/", import.meta.url));
let root: string;
let log: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "tournament-"));
  log = path.join(root, "replay-log.jsonl");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function newExample(dir = path.join(root, "t"), replayDir?: string) {
  return createReplayTournament(dir, {
    players: "replay:alice,replay:bob,replay:carol",
    ...(replayDir ? { replayDir } : {}),
  });
}

/** Every seat call the replay adapter saw, as `debate/exchange/role/attempt` strings. */
async function calls(): Promise<string[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const e = JSON.parse(l) as { debateId: string; exchange: number; role: string; attempt: number };
      return `${e.debateId}/${e.exchange}/${e.role}/${e.attempt}`;
    });
}

const env = () => ({ ...process.env, DEBATEKIT_REPLAY_LOG: log });

describe("debate tournament new", () => {
  it("writes tournament.md and one debate folder per match (3 players x 2 motions x both sides = 12)", async () => {
    const { tournament } = await newExample();
    expect(tournament.frontmatter.matches).toHaveLength(12);
    const debates = (await readdir(path.join(root, "t", "debates"))).sort();
    expect(debates).toEqual(tournament.frontmatter.matches.map((m) => m.id).sort());
    expect(debates).toContain("m01-replay-alice-vs-replay-bob");
    expect(debates).toContain("m01-replay-bob-vs-replay-alice");
    const text = await readFile(path.join(root, "t", TOURNAMENT_FILE), "utf8");
    const parsed = parseTournamentFile(text);
    expect(serializeTournamentFile(parsed)).toBe(text);
    expect(parsed.frontmatter.motions[0]!.answer).toBe("against");
    const debateMd = await readFile(path.join(root, "t", "debates", debates[0]!, "debate.md"), "utf8");
    expect(debateMd).toMatch(/format: crossfire/);
    expect(debateMd).toMatch(/model: alice/);
  });

  it("refuses a missing recording, naming it, and leaves nothing behind", async () => {
    const partial = path.join(root, "partial");
    await cp(path.join(example, "recordings"), partial, { recursive: true });
    await rm(path.join(partial, "m02-replay-carol-vs-replay-bob.jsonl"));
    await expect(newExample(path.join(root, "t"), partial)).rejects.toThrow(
      /lacks 1 recording\(s\), e\.g\. m02-replay-carol-vs-replay-bob\.jsonl/,
    );
    await expect(readdir(path.join(root, "t"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a folder that is not empty", async () => {
    await newExample();
    await expect(newExample()).rejects.toThrow(/already exists and is not empty/);
  });

  it("a motions file error names the file, line and field", () => {
    expect(() => parseMotions('{"motion": "a"}\n{"motion": "b", "answer": "maybe"}\n', "m.jsonl")).toThrow(
      /m\.jsonl:2: `answer` must be "for" or "against"/,
    );
    expect(() => parseMotions("# only a comment\n", "m.txt")).toThrow(/m\.txt holds no motion/);
    expect(parseMotions("First motion\n\n# note\nSecond motion\n", "m.txt").map((m) => m.id)).toEqual([
      "m01",
      "m02",
    ]);
  });

  it("a broken tournament.md names the field", async () => {
    await newExample();
    const file = path.join(root, "t", TOURNAMENT_FILE);
    await writeFile(file, (await readFile(file, "utf8")).replace("sides: both", "sides: three"));
    await expect(readTournament(path.join(root, "t"))).rejects.toThrow(/tournament\.md: .*sides/);
  });
});

describe("debate tournament plan", () => {
  it("counts the seat calls from the format and marks every figure an estimate", async () => {
    const { tournament } = await newExample();
    tournament.frontmatter.prices = { "replay:alice": { input: 3, output: 15 } };
    const plan = await planTournament(tournament);
    expect(plan.estimate).toBe(true);
    expect(plan.debates).toBe(12);
    // crossfire, 1 round: proposer, challenger, verdict.
    expect(plan.calls).toBe(36);
    const alice = plan.perEntrant.find((l) => l.name === "replay:alice")!;
    expect(alice.calls).toBe(8);
    expect(alice.inputTokens).toBeGreaterThan(8 * 600);
    expect(alice.costUsd).toBeCloseTo((alice.inputTokens * 3 + alice.outputTokens * 15) / 1e6, 9);
    // Replay seats call no model: free, as the usage ledger counts them.
    expect(plan.total.unpriced).toEqual([]);
    expect(plan.perEntrant.find((l) => l.name === "replay:bob")!.costUsd).toBe(0);
    expect(plan.perMatch["m01-replay-bob-vs-replay-carol"]).toBe(0);
  });

  it("prices a seat from the usage ledger's table when tournament.md has no price for it", async () => {
    const { tournament } = await newExample();
    const bob = tournament.frontmatter.players.find((p) => p.name === "replay:bob")!;
    bob.seat = { adapter: "http", model: "gpt-5", base_url: "http://127.0.0.1:9/v1" };
    const carol = tournament.frontmatter.players.find((p) => p.name === "replay:carol")!;
    carol.seat = { adapter: "http", model: "no-such-model", base_url: "http://127.0.0.1:9/v1" };
    const plan = await planTournament(tournament);
    const line = plan.perEntrant.find((l) => l.name === "replay:bob")!;
    // gpt-5's list price: $1.25 in, $10 out per million tokens.
    expect(line.costUsd).toBeCloseTo((line.inputTokens * 1.25 + line.outputTokens * 10) / 1e6, 9);
    expect(plan.total.unpriced).toEqual(["replay:carol"]);
    expect(plan.perMatch["m01-replay-bob-vs-replay-carol"]).toBeUndefined();
    expect(plan.method).toMatch(/list price/);
  });
});

describe("debate tournament run (local)", () => {
  it("runs every debate once, rates them, and a second run repeats nothing", async () => {
    await newExample();
    const dir = path.join(root, "t");
    const summary = await runTournament(dir, { concurrency: 4, env: env() });
    expect(summary).toMatchObject({ status: "finished", done: 12, failed: 0, ran: 12 });
    const first = await calls();
    expect(first).toHaveLength(36);
    expect(new Set(first).size).toBe(36);
    const again = await runTournament(dir, { concurrency: 4, env: env() });
    expect(again).toMatchObject({ status: "finished", done: 12, ran: 0 });
    expect(await calls()).toEqual(first);
    expect((await readTournament(dir)).frontmatter).toMatchObject({ status: "finished", runs: 2 });
  });

  it("resumes after a stop: no finished debate re-run, no journaled call repeated", async () => {
    await newExample();
    const dir = path.join(root, "t");
    const controller = new AbortController();
    const stopped = await runTournament(dir, {
      concurrency: 2,
      env: env(),
      signal: controller.signal,
      onEvent: (e) => e.type === "debate_finished" && controller.abort(),
    });
    expect(stopped.status).toBe("stopped");
    expect(stopped.done).toBeGreaterThan(0);
    expect(stopped.done).toBeLessThan(12);
    const resumed = await runTournament(dir, { concurrency: 2, env: env() });
    expect(resumed).toMatchObject({ status: "finished", done: 12 });
    const all = await calls();
    expect(all).toHaveLength(36);
    expect(new Set(all).size).toBe(36);
  });

  it("records a debate that fails for good and still finishes the tournament", async () => {
    await newExample();
    const dir = path.join(root, "t");
    const broken = path.join(dir, "debates", "m02-replay-bob-vs-replay-carol", "replay.jsonl");
    const lines = (await readFile(broken, "utf8")).split("\n").filter((l) => !l.includes('"role":"judge"'));
    await writeFile(broken, `${lines.join("\n")}\n`);
    const events: TournamentEvent[] = [];
    const summary = await runTournament(dir, { concurrency: 3, env: env(), onEvent: (e) => events.push(e) });
    expect(summary).toMatchObject({ status: "finished", done: 11, failed: 1 });
    expect(events.find((e) => e.type === "debate_finished" && e.status === "failed")).toMatchObject({
      id: "m02-replay-bob-vs-replay-carol",
    });
    const failure = JSON.parse(
      await readFile(path.join(dir, "failures", "m02-replay-bob-vs-replay-carol.json"), "utf8"),
    );
    expect(failure.message).toMatch(/has no answer for exchange 1, role judge/);
    const { leaderboard } = await writeTournamentReport(dir);
    expect(leaderboard.counts).toMatchObject({ done: 11, failed: 1, decided: 11 });
    const md = await readFile(path.join(dir, "leaderboard.md"), "utf8");
    expect(md.indexOf("1 debate(s) failed")).toBeLessThan(md.indexOf("## Ratings"));
    // Not retried unless asked.
    const before = (await calls()).length;
    expect(await runTournament(dir, { env: env() })).toMatchObject({ ran: 0, failed: 1 });
    expect((await calls()).length).toBe(before);
  });

  it("--max-cost stops before a debate whose estimate would pass the budget", async () => {
    const { tournament } = await newExample();
    tournament.frontmatter.prices = {
      replay: { input: 1, output: 1 },
      "replay:alice": { input: 1, output: 1 },
      "replay:bob": { input: 1, output: 1 },
      "replay:carol": { input: 1, output: 1 },
    };
    const plan = await planTournament(tournament);
    const each = plan.perMatch["m01-replay-alice-vs-replay-bob"]!;
    expect(each).toBeGreaterThan(0);
    const summary = await runTournament(path.join(root, "t"), {
      concurrency: 1,
      env: env(),
      maxCostUsd: each * 3.5,
      estimates: plan.perMatch,
    });
    expect(summary).toMatchObject({ status: "stopped", done: 3 });
    expect(summary.reason).toMatch(/would take the spend .* past --max-cost/);
    await expect(runTournament(path.join(root, "t"), { maxCostUsd: 1, estimates: {} })).rejects.toThrow(
      /--max-cost needs a price/,
    );
  });
});

describe("ratings from the folders alone", () => {
  it("the example's leaderboard: alice > bob > carol, judge accuracy from known answers, same files twice", async () => {
    await newExample();
    const dir = path.join(root, "t");
    await runTournament(dir, { env: env() });
    const { leaderboard } = await writeTournamentReport(dir);
    expect(leaderboard.ratings.map((r) => r.name)).toEqual(["replay:alice", "replay:bob", "replay:carol"]);
    expect(leaderboard.ratings.map((r) => r.score)).toEqual([7, 4, 1]);
    expect(leaderboard.headToHead.score[0]).toEqual([0, 3, 4]);
    expect(leaderboard.sides.first).toEqual({ score: 8, games: 12 });
    // m01's answer is `against` (the challenger is right), m02's `for`: the recorded judge sided with the right side 6 times in 12.
    expect(leaderboard.correctness?.overall).toEqual({ correct: 6, decided: 12 });
    const md = await readFile(path.join(dir, "leaderboard.md"), "utf8");
    const html = await readFile(path.join(dir, "leaderboard.html"), "utf8");
    // Recomputed from a copy of the folders: identical.
    const copy = path.join(root, "copy");
    await cp(dir, copy, { recursive: true });
    await rm(path.join(copy, "leaderboard.md"));
    await writeTournamentReport(copy);
    expect(await readFile(path.join(copy, "leaderboard.md"), "utf8")).toBe(md);
    expect((await readFile(path.join(copy, "leaderboard.html"), "utf8")).replaceAll("copy", "t")).toBe(
      html.replaceAll("copy", "t"),
    );
    expect(html).toContain('href="debates/m01-replay-alice-vs-replay-bob/report.html"');
    await expect(
      readFile(path.join(dir, "debates", "m01-replay-alice-vs-replay-bob", "report.html"), "utf8"),
    ).resolves.toMatch(/<html/);
    const results = await readResults(await readTournament(dir));
    expect(results.every((r) => r.calls === 3)).toBe(true);
  });
});

describe("provider gate", () => {
  it("holds calls in flight to the limit", async () => {
    const gate = createGate({ concurrency: 2 });
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const release = await gate.acquire();
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        release();
      }),
    );
    expect(most).toBe(2);
  });

  it("holds calls per minute to the limit, on the clock it is given", async () => {
    let now = 0;
    const wakes: Array<{ ms: number; wake: () => void }> = [];
    const gate = createGate(
      { per_minute: 2 },
      { now: () => now, schedule: (ms, wake) => wakes.push({ ms, wake }) },
    );
    const granted: number[] = [];
    for (let i = 0; i < 3; i++) {
      void gate.acquire().then((release) => {
        granted.push(i);
        release();
      });
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(granted).toEqual([0, 1]);
    expect(wakes.map((w) => w.ms)).toEqual([60_001]);
    now = 60_001;
    wakes[0]!.wake();
    await new Promise((r) => setTimeout(r, 10));
    expect(granted).toEqual([0, 1, 2]);
  });

  it("a waiting call is abandoned when its signal aborts", async () => {
    const gate = createGate({ concurrency: 1 });
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    release();
    const again = await gate.acquire();
    again();
  });
});

describe("pauseOnRateLimit (local runs: a 429 waits and asks again)", () => {
  it("reads the wait a rate-limit error names", () => {
    expect(retryAfterMs("HTTP 429: slow down (retry-after-ms: 250)")).toBe(250);
    expect(retryAfterMs("rate limited, Retry-After: 3")).toBe(3000);
    expect(retryAfterMs("Please retry in 1.5s")).toBe(1500);
    expect(retryAfterMs("HTTP 429 (rate limited or out of quota): slow down")).toBeUndefined();
    // The http adapter's wording of a Retry-After header.
    expect(retryAfterMs("HTTP 429 (rate limited or out of quota; retry after 1500 ms): slow down")).toBe(
      1500,
    );
  });

  it("asks again after each 429 with growing waits, and returns the first real answer or failure", async () => {
    const answers = [
      { status: "exit", error: "HTTP 429 (rate limited or out of quota)" },
      { status: "exit", error: "rate limit reached" },
      { status: "ok", text: "the answer" },
      { status: "exit", error: "HTTP 500: boom" },
    ];
    let calls = 0;
    const seat = {
      name: "fake",
      detect: async () => ({ installed: true }),
      call: async () => ({ durationMs: 1, transport: "file", text: "", ...answers[calls++]! }),
    } as unknown as Parameters<typeof pauseOnRateLimit>[0];
    const waits: number[] = [];
    const paused = pauseOnRateLimit(seat, (ms) => waits.push(ms), { firstMs: 1, maxMs: 2 });
    const request = { prompt: "p", timeoutMs: 1000 } as unknown as Parameters<typeof seat.call>[0];
    expect((await paused.call(request)).text).toBe("the answer");
    expect(waits).toEqual([1, 2]);
    expect(calls).toBe(3);
    // Not a rate limit: returned as it is (the runner journals it and decides).
    expect((await paused.call(request)).error).toBe("HTTP 500: boom");
    expect(waits).toEqual([1, 2]);
  });
});
