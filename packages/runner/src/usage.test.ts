import { readFileSync, writeFileSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Adapter, SeatCall } from "@debatekit/adapter-kit";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import type { SeatConfig, UsageLedger } from "@debatekit/schema";
import { validateUsageLedger } from "@debatekit/schema";
import { countTokens } from "@debatekit/skills";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildLedger, LEDGER_FILE, readUsageLedger } from "./ledger.js";
import { costOf, priceFor } from "./prices.js";
import { runDebate } from "./run.js";
import type { RunEvent, RunOptions } from "./types.js";
import { callUsage, estimateCallCost } from "./usage.js";

// The example debate, its seats answered from its recording, each seat reporting usage the way a
// kind of CLI does: the proposition tokens with cache reads (codex-like, priced by its `price:`),
// the opposition nothing (copilot-like: estimated with the tokenizer, priced), the judge its own
// cost (claude-like, over `acp` here: a CLI that reports cost).
const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));

const propositionPrice = { input_per_mtok: 3, cached_input_per_mtok: 0.3, output_per_mtok: 15 };
const oppositionPrice = { input_per_mtok: 1, output_per_mtok: 2 };
const judgeCostUsd = 0.01;

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-usage-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The example with paid-looking seats; `extra` lines go into debate.md's frontmatter. */
async function pricedExample(name: string, extra: string[] = [], judgePrice = false): Promise<string> {
  const dir = join(base, name);
  await cp(example, dir, { recursive: true });
  const file = join(dir, "debate.md");
  const seats = [
    "seats:",
    `  proposition: { adapter: http, model: stub-a, file: replay.jsonl, price: ${JSON.stringify(propositionPrice)} }`,
    `  opposition: { adapter: http, model: stub-b, file: replay.jsonl, price: ${JSON.stringify(oppositionPrice)} }`,
    judgePrice
      ? "  judge: { adapter: http, model: stub-c, file: replay.jsonl }"
      : "  judge: { adapter: acp, model: stub-c, file: replay.jsonl }",
  ];
  const text = readFileSync(file, "utf8").replace(
    /seats:\n(?: {2}.*\n)+/,
    `${[...seats, ...extra].join("\n")}\n`,
  );
  writeFileSync(file, text);
  return dir;
}

/** Seat adapters answering from the recording, reporting usage per role; `calls` counts real calls. */
function usageReporting(calls: string[], options: Partial<RunOptions> = {}): RunOptions {
  const factory = (seat: SeatConfig, context: { debateDir: string }): Adapter => {
    const replay = createReplayAdapter({ adapter: "replay", file: seat.file! }, context);
    return {
      name: seat.adapter,
      detect: () => replay.detect(),
      call: async (request): Promise<SeatCall> => {
        const role = request.step!.role;
        calls.push(`${role}@${request.step!.exchange}`);
        const answer = await replay.call(request);
        const usage =
          role === "proposition"
            ? { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 200 }
            : role === "judge"
              ? { inputTokens: 3000, outputTokens: 400, costUsd: judgeCostUsd }
              : undefined;
        return { ...answer, transport: "cli", ...(usage ? { usage } : {}) };
      },
    };
  };
  return { skillRoots: [repoSkills], cwd: base, adapters: { http: factory, acp: factory }, ...options };
}

async function ledgerFile(dir: string): Promise<UsageLedger> {
  const data: unknown = JSON.parse(await readFile(join(dir, LEDGER_FILE), "utf8"));
  const checked = validateUsageLedger(data);
  expect(checked.ok).toBe(true);
  return data as UsageLedger;
}

describe("usage on record", { timeout: 60_000 }, () => {
  it("journals every call's tokens and cost and sums them per seat and in total in .debate/ledger.json", async () => {
    const dir = await pricedExample("ledger");
    const calls: string[] = [];
    const summary = await runDebate(dir, usageReporting(calls));
    expect(summary.status).toBe("done");
    const ledger = await ledgerFile(dir);
    const journal = (await readdir(join(dir, ".debate/journal"))).filter((n) => n.endsWith(".json"));
    expect(ledger.calls.map((c) => c.journal).sort()).toEqual(journal.sort());
    expect(ledger.total.calls).toBe(calls.length);

    const prop = ledger.calls.filter((c) => c.role === "proposition");
    expect(prop.length).toBeGreaterThan(0);
    for (const call of prop) {
      expect(call.usage).toMatchObject({
        input_tokens: 1000,
        cached_input_tokens: 800,
        output_tokens: 200,
        tokens: "reported",
        cost: "priced",
        // 200 uncached at $3, 800 cached at $0.30, 200 out at $15 per million.
        cost_usd: 0.00384,
      });
    }
    for (const call of ledger.calls.filter((c) => c.role === "opposition")) {
      const entry = JSON.parse(await readFile(join(dir, ".debate/journal", call.journal), "utf8"));
      expect(call.usage.tokens).toBe("estimated");
      expect(call.usage.cost).toBe("priced");
      // Estimated: the answer counted with the tokenizer; the prompt likewise (its tokens are on record).
      expect(call.usage.output_tokens).toBe(countTokens(entry.result.text));
      expect(call.usage.input_tokens).toBe(call.usage.prompt_tokens);
      expect(call.usage.input_tokens).toBeGreaterThan(500);
      expect(call.usage.cost_usd).toBe(
        costOf(
          { input: call.usage.input_tokens, cached: 0, output: call.usage.output_tokens },
          oppositionPrice,
        ),
      );
    }
    for (const call of ledger.calls.filter((c) => c.role === "judge"))
      expect(call.usage).toMatchObject({ cost: "reported", cost_usd: judgeCostUsd, tokens: "reported" });

    const sum = (role?: string) =>
      ledger.calls.filter((c) => !role || c.role === role).reduce((n, c) => n + (c.usage.cost_usd ?? 0), 0);
    for (const role of ["proposition", "opposition", "judge"]) {
      expect(ledger.seats[role]!.calls).toBe(ledger.calls.filter((c) => c.role === role).length);
      expect(ledger.seats[role]!.cost_usd).toBeCloseTo(sum(role), 9);
    }
    expect(ledger.total.cost_usd).toBeCloseTo(sum(), 9);
    expect(ledger.total.estimated_calls).toBe(ledger.seats.opposition!.calls);
    expect(ledger.total.unknown_cost_calls).toBe(0);
    // The file is what the journal says: rebuilt from it, byte for byte the same numbers.
    expect(await readUsageLedger(dir, "ai-review-gate")).toEqual(ledger);
  });

  it("counts each call exactly once across a crash: journaled answers reused on resume are not counted again", async () => {
    const dir = await pricedExample("resume");
    const calls: string[] = [];
    // Stop while the judge of exchange 1 is being asked: both sides' answers are journaled, not committed.
    const stop = new AbortController();
    const first = await runDebate(dir, {
      ...usageReporting(calls),
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === "seat_started" && e.role === "judge" && e.exchange === 1) stop.abort();
      },
    });
    expect(first.status).toBe("cancelled");
    await rm(join(dir, LEDGER_FILE), { force: true }); // as if killed before the ledger write
    const second = await runDebate(dir, usageReporting(calls));
    expect(second.status).toBe("done");
    const ledger = await ledgerFile(dir);
    // Every real call once (the cancelled judge call is journaled too, as `cancelled`).
    expect(ledger.total.calls).toBe(calls.length);
    expect(new Set(ledger.calls.map((c) => c.journal)).size).toBe(ledger.calls.length);
    const cancelled = ledger.calls.filter((c) => c.status === "cancelled");
    expect(cancelled.length).toBeLessThanOrEqual(1);
  });
});

describe("the ledger a resume leaves", { timeout: 60_000 }, () => {
  const cancelAtJudge = (calls: string[], exchange: number) => {
    const stop = new AbortController();
    return {
      ...usageReporting(calls),
      signal: stop.signal,
      onEvent: (e: RunEvent) => {
        if (e.type === "seat_started" && e.role === "judge" && e.exchange === exchange) stop.abort();
      },
    };
  };

  it("is the journal's, whether the run merged its calls into the ledger it found or rebuilt a stale one", async () => {
    const dir = await pricedExample("merge");
    const calls: string[] = [];
    expect((await runDebate(dir, cancelAtJudge(calls, 1))).status).toBe("cancelled");
    const rebuilt = () => readUsageLedger(dir, "ai-review-gate");
    const found = await ledgerFile(dir);
    expect(found).toEqual(await rebuilt());
    // The next run finds that ledger current and merges its own calls into it.
    expect((await runDebate(dir, cancelAtJudge(calls, 2))).status).toBe("cancelled");
    const merged = await ledgerFile(dir);
    expect(merged.calls.length).toBeGreaterThan(found.calls.length);
    expect(merged).toEqual(await rebuilt());
    // A ledger that no longer lists the journal's files (a row lost) is rebuilt from the journal.
    await writeFile(
      join(dir, LEDGER_FILE),
      JSON.stringify({ ...merged, calls: merged.calls.slice(1) }, null, 2),
    );
    expect((await runDebate(dir, usageReporting(calls))).status).toBe("done");
    expect(await ledgerFile(dir)).toEqual(await rebuilt());
    expect((await ledgerFile(dir)).total.calls).toBe(calls.length);
  });
});

describe("max cost", { timeout: 60_000 }, () => {
  it("stops before the call that would exceed max_cost_usd, names the budget, and resumes once it is raised", async () => {
    const dir = await pricedExample("budget", ["max_cost_usd: 0.03"]);
    const calls: string[] = [];
    const stopped = await runDebate(dir, usageReporting(calls));
    expect(stopped.status).toBe("paused");
    expect(stopped.reason).toMatch(/max cost \$0\.03 would be exceeded: \$0\.0\d+ spent.*estimated at \$/);
    expect(stopped.reason).toMatch(/raise max_cost_usd in debate\.md/);
    const ledger = await ledgerFile(dir);
    expect(ledger.max_cost_usd).toBe(0.03);
    expect(ledger.total.cost_usd).toBeLessThanOrEqual(0.03);
    // Spent when the check was made (a seat asked in parallel may have finished since).
    expect(stopped.budget!.spent_usd).toBeLessThanOrEqual(ledger.total.cost_usd);
    const { spent_usd, under_way_usd = 0, next_call_usd = 0 } = stopped.budget!;
    expect(spent_usd + under_way_usd + next_call_usd).toBeGreaterThan(0.03);
    expect(ledger.total.calls).toBe(calls.length);

    // The same run again: a call the first run held back only for a parallel seat's (high) estimate
    // may go now, but the budget still holds.
    expect((await runDebate(dir, usageReporting(calls))).status).toBe("paused");
    expect((await ledgerFile(dir)).total.cost_usd).toBeLessThanOrEqual(0.03);
    expect((await ledgerFile(dir)).total.calls).toBe(calls.length);

    // --max-cost overrides debate.md for one run; raising the budget in debate.md resumes for good.
    const more = await runDebate(dir, usageReporting(calls, { maxCostUsd: 0.06 }));
    expect(more.status).toBe("paused");
    expect((await ledgerFile(dir)).total.cost_usd).toBeGreaterThan(ledger.total.cost_usd);
    const file = join(dir, "debate.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("max_cost_usd: 0.03", "max_cost_usd: 5"));
    const done = await runDebate(dir, usageReporting(calls));
    expect(done.status).toBe("done");
    expect((await ledgerFile(dir)).total.cost_usd).toBeLessThanOrEqual(5);
  });

  it("refuses to run a seat it cannot price under a budget, naming the seat", async () => {
    const dir = await pricedExample("unpriced", ["max_cost_usd: 1"], true);
    const calls: string[] = [];
    const stopped = await runDebate(dir, usageReporting(calls));
    expect(stopped.status).toBe("paused");
    expect(stopped.reason).toMatch(
      /the judge seat \(http, stub-c\) has no price and its CLI reports no cost/,
    );
    expect(calls.every((c) => !c.startsWith("judge"))).toBe(true);
  });
});

describe("prices and estimates", () => {
  it("finds a model's row by exact, dated or provider-prefixed name, and never a longer model's", () => {
    expect(priceFor({}, "gpt-5")?.input_per_mtok).toBe(1.25);
    expect(priceFor({}, "gpt-5-2025-08-07")?.input_per_mtok).toBe(1.25);
    expect(priceFor({}, "anthropic/claude-sonnet-4-5-20250929")?.output_per_mtok).toBe(15);
    expect(priceFor({}, "gpt-5-mini")?.input_per_mtok).toBe(0.25);
    expect(priceFor({}, "gpt-5.5")).toBeUndefined();
    expect(priceFor({}, "qwen3:8b")).toBeUndefined();
    expect(priceFor({ price: oppositionPrice }, "gpt-5")).toBe(oppositionPrice);
  });

  it("records a seat with no price and no reported cost as cost unknown, never as free", () => {
    const usage = callUsage({
      seat: { adapter: "codex", model: "gpt-5.5" },
      sent: "hello there",
      result: {
        status: "ok",
        text: "hi",
        durationMs: 1,
        transport: "cli",
        usage: { inputTokens: 9, outputTokens: 2 },
      },
    });
    expect(usage).toMatchObject({ cost: "unknown", tokens: "reported", input_tokens: 9 });
    expect(usage.cost_usd).toBeUndefined();
    const ledger = buildLedger("x", [
      {
        version: 1,
        debate_id: "x",
        exchange: 0,
        phase: "awaiting_arguments",
        role: "proposition",
        attempt: 1,
        prompt_sha256: "0".repeat(64),
        started_at: "2026-01-01T00:00:00.000Z",
        finished_at: "2026-01-01T00:00:01.000Z",
        result: { status: "ok", text: "hi", durationMs: 1, transport: "cli" },
        usage,
      },
    ]);
    expect(ledger.total).toMatchObject({ cost_usd: 0, unknown_cost_calls: 1 });
  });

  it("estimates the next call from the prompt and the seat's largest answer, or from its reported rate", () => {
    const prompt = "word ".repeat(1000);
    const tokens = countTokens(prompt);
    const seat = { adapter: "codex" as const, price: { input_per_mtok: 2, output_per_mtok: 10 } };
    expect(estimateCallCost({ seat, prompt, past: [] })).toBeCloseTo((tokens * 2 + 1000 * 10) / 1e6, 9);
    const past = [
      {
        usage: {
          input_tokens: 10,
          cached_input_tokens: 0,
          output_tokens: 3000,
          tokens: "reported" as const,
          cost: "priced" as const,
        },
      },
    ];
    expect(estimateCallCost({ seat, prompt, past })).toBeCloseTo((tokens * 2 + 3000 * 10) / 1e6, 9);
    const claude = { adapter: "claude" as const, model: "sonnet" };
    expect(estimateCallCost({ seat: claude, prompt, past: [] })).toBeUndefined();
    const reported = [
      {
        usage: {
          input_tokens: 900,
          cached_input_tokens: 0,
          output_tokens: 100,
          cost_usd: 0.01,
          tokens: "reported" as const,
          cost: "reported" as const,
        },
      },
    ];
    // $0.01 per 1000 tokens, over the prompt and the largest answer so far (100).
    expect(estimateCallCost({ seat: claude, prompt, past: reported })).toBeCloseTo(
      ((tokens + 100) * 0.01) / 1000,
      6,
    );
    expect(estimateCallCost({ seat: { adapter: "replay" }, prompt, past: [] })).toBe(0);
  });
});
