import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { type RunEvent, runDebate } from "@debatekit/runner";
import type { JournalEntry } from "@debatekit/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// The seats here are scripted fakes (a model's answers); the runner, files and core are real.
interface Recorded {
  text: string;
  exchange: number;
  role: string;
}
const recording: Recorded[] = (await readFile(join(repoRoot, "examples/ai-review-gate/replay.jsonl"), "utf8"))
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const answerOf = (exchange: number, role: string) =>
  recording.find((r) => r.exchange === exchange && r.role === role)!.text;

type Script = (request: SeatRequest) => Promise<Partial<SeatCall>> | Partial<SeatCall>;

function scripted(script: Script, calls: SeatRequest[]): Adapter {
  return {
    name: "scripted",
    async call(request) {
      calls.push(request);
      const out = await script(request);
      return { status: "ok", text: "", durationMs: 1, transport: "file", ...out };
    },
    async detect() {
      return { adapter: "scripted", installed: true, usable: true };
    },
  };
}

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), "runner-retry-")), "d");
  await mkdir(dir);
});
afterEach(async () => {
  await rm(join(dir, ".."), { recursive: true, force: true });
});

async function writeDebate(extra = ""): Promise<string> {
  const text = `---
debate_id: d
format: formal
exchanges: 1
current_exchange: 0
current_phase: awaiting_arguments
${extra}seats:
  proposition: { adapter: http }
  opposition: { adapter: http }
  judge: { adapter: http }
---

# Motion

This house would require a second AI model's review before merging AI-written code.
`;
  await writeFile(join(dir, "debate.md"), text);
  return text;
}

async function journal(): Promise<JournalEntry[]> {
  const files = (await readdir(join(dir, ".debate/journal"))).sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, ".debate/journal", f), "utf8"))),
  );
}

/** Seats: debaters answer the recorded openings; the judge follows `judge`. */
function seats(judge: Script, calls: SeatRequest[], debaters?: Script) {
  const debater: Script = debaters ?? ((r) => ({ text: answerOf(0, r.step!.role) }));
  return {
    http: (seat: unknown, ctx: unknown) => {
      void seat;
      void ctx;
      return scripted((r) => (r.step!.role === "judge" ? judge(r) : debater(r)), calls);
    },
  };
}

const unbalanced = JSON.stringify({
  scores: ["prop_000a", "prop_000b", "prop_000c", "opp_000a", "opp_000b", "opp_000c"].map((id) => ({
    argument_id: id,
    score: 0.1,
    reasoning: "All good.",
  })),
});

/** The recorded opening with every argument stripped of its claim, warrant and grounds: many problems at once. */
function brokenOpening(): string {
  const opening = JSON.parse(answerOf(0, "proposition")) as { arguments: Record<string, unknown>[] };
  const broken = opening.arguments.map(({ claim: _c, warrant: _w, grounds: _g, ...rest }) => rest);
  return JSON.stringify({ arguments: broken });
}

describe("runDebate: validation failures", () => {
  it("names every problem of the last answer when retries run out (three, then how many more and where)", async () => {
    await writeDebate("retries: 1\n");
    const calls: SeatRequest[] = [];
    const failed = await runDebate(dir, {
      adapters: seats(
        () => ({ text: unbalanced }),
        calls,
        (r) => ({ text: r.step!.role === "proposition" ? brokenOpening() : answerOf(0, r.step!.role) }),
      ),
    });
    expect(failed.status).toBe("failed");
    const last = (await journal()).filter((e) => e.role === "proposition").at(-1)!;
    const errors = last.validation!.errors!;
    expect(errors.length).toBeGreaterThan(3);
    const file = ".debate/journal/x0000-1-arguments-proposition-a002.json";
    expect(failed.error!.file).toBe(file);
    const message = failed.error!.message;
    for (const error of errors.slice(0, 3)) expect(message).toContain(error);
    expect(message).not.toContain(errors[3]!);
    expect(message).toContain(`and ${errors.length - 3} more: see ${file}`);
  });

  it("asks again with the errors fed back, then fails cleanly with the state unchanged", async () => {
    await writeDebate();
    const calls: SeatRequest[] = [];
    const events: RunEvent[] = [];
    // Openings are committed first; the judge then never balances its scores.
    const first = await runDebate(dir, {
      adapters: seats(() => ({ text: unbalanced }), calls),
      onEvent: (e) => events.push(e),
    });
    expect(first.status).toBe("failed");
    expect(first.error).toMatchObject({ code: "ANSWER_INVALID", field: "scores" });
    expect(first.error!.message).toContain(
      "the judge's answer for exchange 0 is still invalid after 3 attempt(s)",
    );
    expect(first.error!.message).toContain("JUDGMENT_NOT_ZERO_SUM");
    expect(first.error!.file).toBe(".debate/journal/x0000-2-judgment-judge-a003.json");
    expect(first).toMatchObject({ exchange: 0, phase: "awaiting_judgment", committed: 1 });

    const judgeCalls = calls.filter((c) => c.step!.role === "judge");
    expect(judgeCalls.map((c) => c.step!.attempt)).toEqual([1, 2, 3]);
    expect(judgeCalls[0]!.prompt).not.toContain("JUDGMENT_NOT_ZERO_SUM");
    expect(judgeCalls[1]!.prompt).toContain("JUDGMENT_NOT_ZERO_SUM");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);

    const judged = (await journal()).filter((e) => e.role === "judge");
    expect(judged.map((e) => e.validation?.ok)).toEqual([false, false, false]);
    expect(judged[0]!.result.text).toBe(unbalanced);

    // State unchanged by the failed judgment: debate.md and the argument files as committed, no scores.
    const debateMd = await readFile(join(dir, "debate.md"), "utf8");
    expect(debateMd).toMatch(/current_phase: awaiting_judgment/);
    expect(await readdir(dir)).not.toContain("scores.json");
    const again = await runDebate(dir, { adapters: seats(() => ({ text: unbalanced }), []) });
    expect(again.status).toBe("failed");
    expect(await readFile(join(dir, "debate.md"), "utf8")).toBe(debateMd);
  });

  it("commits when a retry corrects the answer", async () => {
    await writeDebate();
    const calls: SeatRequest[] = [];
    const summary = await runDebate(dir, {
      adapters: seats((r) => ({ text: r.step!.attempt === 1 ? unbalanced : answerOf(0, "judge") }), calls),
    });
    expect(summary).toMatchObject({ status: "done", exchange: 1, committed: 2 });
    expect(summary.cumulative.proposition).toEqual({ total: 0.15, count: 3 });
    const judged = (await journal()).filter((e) => e.role === "judge");
    expect(judged.map((e) => [e.attempt, e.validation?.ok])).toEqual([
      [1, false],
      [2, undefined],
    ]);
  });

  it("honours `retries: 0` from debate.md", async () => {
    await writeDebate("retries: 0\n");
    const calls: SeatRequest[] = [];
    const summary = await runDebate(dir, { adapters: seats(() => ({ text: unbalanced }), calls) });
    expect(summary.status).toBe("failed");
    expect(calls.filter((c) => c.step!.role === "judge")).toHaveLength(1);
  });
});

describe("runDebate: seats, journal and resume", () => {
  it("asks both debaters in parallel, and reuses a journaled answer after the other side failed", async () => {
    await writeDebate();
    const calls: SeatRequest[] = [];
    const events: RunEvent[] = [];
    let oppFails = true;
    const debaters: Script = async (r) => {
      await new Promise((done) => setTimeout(done, 200));
      if (r.step!.role === "opposition" && oppFails) {
        return { status: "exit", text: "", exitCode: 2, error: "gemini exited with 2: quota exceeded" };
      }
      return { text: answerOf(0, r.step!.role) };
    };
    const first = await runDebate(dir, {
      adapters: seats(() => ({ text: answerOf(0, "judge") }), calls, debaters),
      onEvent: (e) => events.push(e),
    });
    expect(first.status).toBe("failed");
    expect(first.error).toMatchObject({
      code: "SEAT_EXIT",
      file: ".debate/journal/x0000-1-arguments-opposition-a001.json",
    });
    expect(first.error!.message).toContain("quota exceeded");
    // Both started before either finished: parallel, not one after the other.
    const order = events
      .filter((e) => e.type === "seat_started" || e.type === "seat_finished")
      .map((e) => e.type);
    expect(order.slice(0, 2)).toEqual(["seat_started", "seat_started"]);

    oppFails = false;
    calls.length = 0;
    const second = await runDebate(dir, {
      adapters: seats(() => ({ text: answerOf(0, "judge") }), calls, debaters),
      onEvent: (e) => events.push(e),
    });
    expect(second.status).toBe("done");
    expect(calls.map((c) => c.step!.role)).toEqual(["opposition", "judge"]);
    expect(events.some((e) => e.type === "seat_finished" && e.role === "proposition" && e.reused)).toBe(true);
  });

  it("redacts secrets before anything reaches the journal", async () => {
    await writeDebate();
    const key = "sk-ant-api03-Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0eG3hJ5kL9nP"; // random-looking: a real key shape
    const envSecret = "correct-horse-battery-staple";
    const summary = await runDebate(dir, {
      env: { ...process.env, MY_SERVICE_TOKEN: envSecret },
      adapters: seats(
        () => ({ text: answerOf(0, "judge") }),
        [],
        (r) => ({
          text: answerOf(0, r.step!.role),
          raw: { stdout: `using ${key}`, stderr: `token=${envSecret}`, truncated: false },
        }),
      ),
    });
    expect(summary.status).toBe("done");
    const all = JSON.stringify(await journal());
    expect(all).not.toContain(key);
    expect(all).not.toContain(envSecret);
    expect(all).toContain("[REDACTED]");
  });

  it("ends `waiting` for a manual seat whose answer is not there, then finishes once it is", async () => {
    await writeFile(
      join(dir, "debate.md"),
      (await writeDebate()).replace("judge: { adapter: http }", "judge: { adapter: manual }"),
    );
    const adapters = seats(() => ({ text: "unused" }), []);
    const first = await runDebate(dir, { adapters });
    expect(first).toMatchObject({ status: "waiting", phase: "awaiting_judgment" });
    expect(first.error!.message).toContain("inbox/e000-judge.md");
    expect(await readFile(join(dir, "prompts/e000-judge.md"), "utf8")).toContain("prop_000a");
    await writeFile(join(dir, "inbox/e000-judge.md"), answerOf(0, "judge"));
    expect((await runDebate(dir, { adapters })).status).toBe("done");
  });
});
