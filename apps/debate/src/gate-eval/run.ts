import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { Writable } from "node:stream";
import type { GateRun } from "@debatekit/core";
import { readDebateFolder, splitFrontmatter, writeFileAtomic } from "@debatekit/files";
import type { GateEvalCase, GatePolicy, GateResult, ReviewSeverity } from "@debatekit/schema";
import { redactOutput } from "../exit-error.js";
import type { CaseResult } from "./case-result.js";
import { pointedAt } from "./case-result.js";
import { cloneCase } from "./git.js";
import { recordMade, vouchedOnResume } from "./made.js";
import { caseScope, finishGateReview, REVIEW_SLUG } from "./resume.js";

/** What `debate gate eval run` needs. */
export interface RunOptions {
  cases: readonly GateEvalCase[];
  /** The policy file (absolute), and its parsed content. */
  policyFile: string;
  policy: GatePolicy;
  /** Where results and review folders go: <store>/cases/<id>.json, <store>/work/<id>/. */
  store: string;
  /** Severity thresholds to report, e.g. [["P1"], ["P1", "P2"]]. */
  thresholds: ReadonlyArray<readonly ReviewSeverity[]>;
  /** Cases reviewed at once. */
  parallel: number;
  env: NodeJS.ProcessEnv;
  /** A Redis URL: the cases run on the queue's workers instead of in this process (`parallel` is then theirs). */
  queue?: string;
  /** Called when a case is done (or found done). */
  onCase?: (result: CaseResult, resumed: boolean) => void;
}

/** The name of a threshold: its severities joined by commas ("P1,P2"). */
export const thresholdName = (severities: readonly string[]) => severities.join(",");

/** The result file of a case. */
export const caseFile = (store: string, id: string) => join(store, "cases", `${id}.json`);

/**
 * Runs the gate on every case, `parallel` at a time; a case whose result file exists is not run again
 * (a killed run resumes), so every finished case's seat calls happen once. Returns the results in set order.
 */
export async function runEvalCases(options: RunOptions): Promise<CaseResult[]> {
  await claimStore(options.store, options.policy);
  const results: CaseResult[] = new Array(options.cases.length);
  // Ctrl-C stops the gates (they cancel their reviews, the journals keep every answered call): the
  // case being reviewed is not written as done, so the next run finishes it. With a queue, the
  // workers go on with their jobs: the next run collects them.
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    if (options.queue) await runQueuedCases(options, options.queue, results, stopping.signal);
    else await runLocalCases(options, results, stopping.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  if (stopping.signal.aborted) throw new EvalStopped();
  return results;
}

/** Reviews the cases in this process, `parallel` at a time. */
async function runLocalCases(options: RunOptions, results: CaseResult[], signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (!signal.aborted && next < options.cases.length) {
      const index = next++;
      const c = options.cases[index]!;
      const done = await readCaseResult(c, options);
      const result = done ?? (await evaluateCase(c, options, () => signal.aborted).catch(caseError(c)));
      if (!result) return;
      results[index] = result;
      options.onCase?.(result, done !== undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
}

/**
 * Reviews the cases on the queue's workers (`debate worker --queue`): each case's review is prepared
 * here as the gate would make it, run by a worker as a tournament's debates are (checkpointed in
 * Redis: a killed worker's job resumes elsewhere, no answered call asked again), and judged here
 * once its folder is back.
 */
async function runQueuedCases(
  options: RunOptions,
  url: string,
  results: CaseResult[],
  signal: AbortSignal,
): Promise<void> {
  const [{ runQueuedDebates }, { judgeQueuedCase, prepareQueuedCase, queueGroup }] = await Promise.all([
    import("@debatekit/tournament"),
    import("./queued.js"),
  ]);
  const waiting = new Map<
    string,
    { index: number; prepared: Awaited<ReturnType<typeof prepareQueuedCase>> }
  >();
  for (const [index, c] of options.cases.entries()) {
    if (signal.aborted) return;
    const done = await readCaseResult(c, options);
    if (done) {
      results[index] = done;
      options.onCase?.(done, true);
      continue;
    }
    const prepared = await prepareQueuedCase(c, options, join(options.store, "work", c.id)).catch(
      caseError(c),
    );
    if (prepared.review) waiting.set(c.id, { index, prepared });
    else {
      // The gate stopped before a review (a bad scope, an unreadable policy): its verdict is final.
      results[index] = await recordCase(c, redactResult(prepared.result, options.env), 0, options);
      options.onCase?.(results[index], false);
    }
  }
  if (waiting.size === 0) return;
  const folders = Object.fromEntries([...waiting].map(([id, w]) => [id, w.prepared.review!]));
  await runQueuedDebates(url, await queueGroup(options.store), folders, {
    signal,
    onEnded: async (end) => {
      const { index, prepared } = waiting.get(end.id)!;
      const c = options.cases[index]!;
      const result = await judgeQueuedCase(prepared, end, options.policy).catch(caseError(c));
      results[index] = await recordCase(c, redactResult(result, options.env), end.ms ?? 0, options);
      options.onCase?.(results[index], false);
    },
  });
}

/** Names the case in an error that stopped it. */
const caseError =
  (c: GateEvalCase) =>
  (error: unknown): never => {
    throw new Error(`case ${c.id}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  };

/** The evaluation was stopped by a signal; what is finished is kept. */
export class EvalStopped extends Error {
  constructor() {
    super("stopped by a signal: finished cases are kept; run the same command again to go on");
    this.name = "EvalStopped";
  }
}

/**
 * Records the policy the results in `store` are made with; a store holding results of another
 * policy is refused, so one report never mixes two policies.
 */
async function claimStore(store: string, policy: GatePolicy): Promise<void> {
  const file = join(store, "policy.json");
  const text = `${JSON.stringify(policy, null, 2)}\n`;
  if (!existsSync(file)) return writeFileAtomic(file, text);
  if ((await readFile(file, "utf8")) !== text)
    throw new Error(
      `${store}: holds results of another policy (${file}); give another --out, or remove the folder`,
    );
}

/** A finished case's result, with any threshold it lacks worked out from its stored gate result (no seat asked). */
export async function readCaseResult(
  c: GateEvalCase,
  options: Pick<RunOptions, "store" | "thresholds" | "policy">,
): Promise<CaseResult | undefined> {
  const file = caseFile(options.store, c.id);
  if (!existsSync(file)) return undefined;
  const stored = JSON.parse(await readFile(file, "utf8")) as CaseResult;
  const missing = options.thresholds.filter((t) => stored.thresholds[thresholdName(t)] === undefined);
  if (missing.length === 0) return stored;
  const added = await thresholdsOf(c, stored.gate, options.policy, missing);
  const record = { ...stored, thresholds: { ...stored.thresholds, ...added } };
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/** The case's outcome under each threshold, and where a block pointed. */
async function thresholdsOf(
  c: GateEvalCase,
  gate: GateResult,
  policy: GatePolicy,
  thresholds: RunOptions["thresholds"],
): Promise<CaseResult["thresholds"]> {
  const out: CaseResult["thresholds"] = {};
  for (const severities of thresholds) {
    const judged = await rejudge(gate, { ...policy, block_on: [...severities] });
    const pointed = pointedAt(judged, c.defects);
    out[thresholdName(severities)] = { outcome: judged.outcome, ...(pointed ? { pointed } : {}) };
  }
  return out;
}

/**
 * One case: a private clone checked out at `head`, then `debate gate --json` on range:base..head with
 * the policy (run in this process, so a killed evaluation leaves no gate running), then the result
 * under each threshold. A review a killed evaluation cut off is finished from its journal instead.
 * Undefined when a signal stopped the evaluation meanwhile (the review may be cut off: not done).
 */
async function evaluateCase(
  c: GateEvalCase,
  options: RunOptions,
  stopped: () => boolean,
): Promise<CaseResult | undefined> {
  const work = join(options.store, "work", c.id);
  const tree = join(work, "tree");
  const review = join(work, "debates", REVIEW_SLUG);
  await rm(tree, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await cloneCase(work, c.repo, c.head, tree);
  const started = Date.now();
  const { env, policy, store } = options;
  const resumed = (await readDebateFolder(review)).ok;
  // Recorded before the gate makes the folder: a run killed in the middle resumes it as its own.
  if (!resumed) await recordMade(store, c, review, policy, env);
  const result = redactResult(
    resumed
      ? await finishGateReview(
          review,
          tree,
          c,
          policy,
          env,
          await vouchedOnResume(store, c, review, policy, env),
        )
      : await runGate(tree, c, options, join(work, "debates")),
    env,
  );
  const wall_ms = Date.now() - started;
  await rm(tree, { recursive: true, force: true });
  if (stopped()) return undefined;
  return recordCase(c, result, wall_ms, options);
}

/** Writes a finished case's result (once, atomically): its outcome under each threshold, votes, usage and time. */
export async function recordCase(
  c: GateEvalCase,
  result: GateResult,
  wall_ms: number,
  options: Pick<RunOptions, "policy" | "store" | "thresholds">,
): Promise<CaseResult> {
  const record: CaseResult = {
    id: c.id,
    label: c.label,
    reason: result.reason,
    thresholds: await thresholdsOf(c, result, options.policy, options.thresholds),
    votes: await readVotes(result.dir),
    ...(await readUsage(result.dir)),
    wall_ms,
    gate: result,
  };
  await writeFileAtomic(caseFile(options.store, c.id), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/**
 * Runs `debate gate --json` in `tree` on the case's change, in this process (the gate command's own
 * registration, no binary: a killed evaluation leaves no gate running). A result it could not print
 * is an undecided gate.
 */
async function runGate(tree: string, c: GateEvalCase, options: RunOptions, dir: string): Promise<GateResult> {
  await rm(dir, { recursive: true, force: true });
  const [{ Command }, { registerGate }] = await Promise.all([
    import("commander"),
    import("../commands/gate.js"),
  ]);
  const stdout = collect();
  const stderr = collect();
  const env = { ...options.env, CI: "1", NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" };
  const program = new Command("debate").exitOverride().configureOutput({
    writeOut: (s) => stdout.stream.write(s),
    writeErr: (s) => stderr.stream.write(s),
  });
  registerGate(program, { stdout: stdout.stream, stderr: stderr.stream, env, cwd: tree });
  const args = ["gate", "--scope", caseScope(c), "--policy", options.policyFile, "--json"];
  args.push("--dir", dir, "--slug", REVIEW_SLUG);
  // A blocked or undecided gate ends with an error carrying its exit code: the result is on stdout.
  await program.parseAsync(args, { from: "user" }).catch(() => undefined);
  try {
    return JSON.parse(stdout.text()) as GateResult;
  } catch {
    const why = (stderr.text().trim().split("\n").at(-1) ?? "").slice(0, 300);
    return {
      outcome: "undecided",
      exit_code: 2,
      reason: `undecided: the gate printed no result: ${why}`,
      findings: [],
      blocking: [],
      degraded: [],
    };
  }
}

/** `result` with every string redacted: model text and provider errors reach the result files. */
function redactResult(result: GateResult, env: NodeJS.ProcessEnv): GateResult {
  return JSON.parse(
    JSON.stringify(result, (_key, value: unknown) =>
      typeof value === "string" ? redactOutput(value, env) : value,
    ),
  ) as GateResult;
}

/** A stream that keeps what is written to it. */
function collect(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * The gate's verdict on the same review under another policy (another `block_on`): no seat is asked
 * again. A review that did not finish (a seat failed, quorum missed) is undecided under every threshold.
 */
async function rejudge(result: GateResult, policy: GatePolicy): Promise<GateResult> {
  const unfinished = result.degraded.some((d) => d.cause === "seat_failed" || d.cause === "quorum_missed");
  if (!result.dir || unfinished) return result;
  const [{ evaluateGate }, read] = await Promise.all([
    import("@debatekit/core"),
    readDebateFolder(result.dir),
  ]);
  if (!read.ok) return result;
  const run: GateRun = { status: "done" };
  return evaluateGate({ state: read.value.state, run, policy, dir: result.dir });
}

/**
 * The review's seat calls and cost, from its journal (none when the gate stopped before a review).
 * Not from `.debate/ledger.json`: that file is derived and may lag behind the journal (a write it
 * skipped leaves it stale), and the evaluation must count every call, each panel judge's too.
 */
async function readUsage(
  dir: string | undefined,
): Promise<Pick<CaseResult, "calls" | "cost_usd" | "unknown_cost_calls">> {
  if (!dir || !existsSync(join(dir, ".debate", "journal")))
    return { calls: 0, cost_usd: 0, unknown_cost_calls: 0 };
  const { readUsageLedger } = await import("@debatekit/runner");
  const { total } = await readUsageLedger(dir, basename(dir));
  return { calls: total.calls, cost_usd: total.cost_usd, unknown_cost_calls: total.unknown_cost_calls };
}

/** Each judged round's panel votes (judges/rNN.md), for the judges' agreement. */
async function readVotes(dir: string | undefined): Promise<Array<Record<string, string>>> {
  const folder = dir && join(dir, "judges");
  if (!folder || !existsSync(folder)) return [];
  const files = (await readdir(folder)).filter((f) => /^r\d+\.md$/.test(f)).sort();
  const votes: Array<Record<string, string>> = [];
  for (const f of files) {
    const split = splitFrontmatter(await readFile(join(folder, f), "utf8"), f);
    const v = split.ok ? split.value.data.votes : undefined;
    if (v && typeof v === "object") votes.push(v as Record<string, string>);
  }
  return votes;
}
