import type {
  Degradation,
  GateFinding,
  GatePolicy,
  GateResult,
  ReviewChoice,
  ReviewFinding,
  ReviewSeverity,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { isJudgeRole } from "../../judging/panel.js";
import type { AnyState } from "../../types.js";
import { reviewDegraded } from "./degraded.js";
import { evidenceAnchor } from "./evidence.js";
import { latestFindings } from "./fingerprint.js";
import { type ReviewState, reviewStateOf, roundsOf, sourcesAtRound } from "./state.js";

/** A gate policy with every default filled in (docs/architecture.md#honest-degradation). */
export interface ResolvedGatePolicy {
  block_on: ReviewSeverity[];
  count_unverified: boolean;
  pass_decisions: ReviewChoice[];
}

/** The policy's defaults: a valid, verified P1 blocks; keep (A) and compromise (C) pass. */
export function resolveGatePolicy(policy: GatePolicy = {}): ResolvedGatePolicy {
  return {
    block_on: policy.block_on ?? ["P1"],
    count_unverified: policy.count_unverified ?? false,
    pass_decisions: policy.pass_decisions ?? ["A", "C"],
  };
}

/** How the run of the gate's review ended (the runner's summary, as far as the gate needs it). */
export interface GateRun {
  status: "done" | "waiting" | "paused" | "failed" | "cancelled";
  /** The sanitized error of a run that failed (a seat's provider error, a broken answer). */
  error?: { code: string; message: string };
  /** The seat being asked when it failed, and its adapter. */
  role?: string;
  adapter?: string;
  /** Why it stopped, for waiting/paused. */
  reason?: string;
}

const oneLine = (s: string, max = 300) => clipText(s.replace(/\s+/g, " ").trim(), max);

function where(f: { file?: string; line?: number }): string {
  return f.file ? ` (${f.file}${f.line ? `:${f.line}` : ""})` : "";
}

/**
 * Every finding of the review, the latest round's copy of each (see latestFindings), except that a
 * blocking finding stands until the judge rules a later copy of it invalid on a changed revision:
 * the text at its anchor (evidenceAnchor) differs between its round and the later one. A later
 * round over the same code cannot talk a blocking finding away.
 */
function gateFindings(state: ReviewState, policy: ResolvedGatePolicy, unchecked: Set<string>): GateFinding[] {
  const cited = new Map<string, ReviewFinding["evidence"]>();
  const anchorChanged = (f: ReviewFinding["evidence"], from: number, to: number) => {
    const before = evidenceAnchor(sourcesAtRound(state, from), f);
    return before !== undefined && before !== evidenceAnchor(sourcesAtRound(state, to), f);
  };
  const replaces = (later: GateFinding, earlier: GateFinding) =>
    !earlier.blocking ||
    later.blocking ||
    (later.verdict === "invalid" &&
      anchorChanged(cited.get(earlier.id), earlier.round ?? 1, later.round ?? 1));
  const rounds = roundsOf(state).map((round) => {
    const judged = new Map((round.classified ?? []).map((f) => [f.id, f.verdict]));
    const said = new Map((round.judgment?.classifications ?? []).map((c) => [c.finding_id, c.verdict]));
    const all: ReviewFinding[] = [...round.critique.findings, ...(round.judgment?.added_findings ?? [])];
    return all.map((f): GateFinding => {
      cited.set(f.id!, f.evidence);
      const verdict = judged.get(f.id!) ?? "unjudged";
      const evidence = f.evidence_status ?? "unverified";
      // The engine demotes an unproven P1 to P2 and a judge's `valid` on unfound evidence to
      // needs_evidence; such a finding may be what blocks, so it never passes silently.
      const severe =
        policy.block_on.includes(f.severity) ||
        (policy.block_on.includes("P1") && f.severity === "P2" && evidence !== "verified");
      const blocking =
        (verdict === "valid" && policy.block_on.includes(f.severity)) ||
        (policy.count_unverified && verdict === "needs_evidence" && severe);
      if (!blocking && severe && said.get(f.id!) === "valid" && verdict !== "valid") unchecked.add(f.id!);
      return {
        id: f.id!,
        severity: f.severity,
        title: f.title,
        detail: f.detail,
        ...(f.evidence?.file ? { file: f.evidence.file } : {}),
        ...(f.evidence?.line ? { line: f.evidence.line } : {}),
        ...(f.evidence?.side === "old" ? { side: "old" as const } : {}),
        ...(f.suggestion ? { suggestion: f.suggestion } : {}),
        verdict,
        evidence_status: evidence,
        blocking,
        ...(f.fingerprint ? { fingerprint: f.fingerprint } : {}),
        round: round.round,
      };
    });
  });
  const rank = { P1: 0, P2: 1, P3: 2 } as const;
  return latestFindings(rounds, replaces).sort(
    (a, b) => Number(b.blocking) - Number(a.blocking) || rank[a.severity] - rank[b.severity],
  );
}

/**
 * The gate's verdict on a review (docs/architecture.md#honest-degradation): undecided (2) when the result cannot be trusted
 * (a seat failed for good, the run did not finish, the budget ran out before a decision, a valid
 * blocking-severity finding whose evidence could not be checked); else blocked (1) when a finding
 * blocks or the decision is not one that passes; else pass (0). Undecided never passes.
 */
export function evaluateGate(input: {
  /** The review's state as files read it (the gate ran a review, so its format is review). */
  state: AnyState;
  run: GateRun;
  policy?: GatePolicy;
  dir?: string;
  scope?: string;
  revision?: string;
}): GateResult {
  const policy = resolveGatePolicy(input.policy);
  const state = reviewStateOf(input.state);
  const fm = state.frontmatter;
  const rounds = roundsOf(state);
  const judged = rounds.filter((r) => r.judgment).length;
  const uncheckedIds = new Set<string>();
  const findings = gateFindings(state, policy, uncheckedIds);
  const degraded: Degradation[] = reviewDegraded(state);
  const base = {
    ...(input.dir ? { dir: input.dir } : {}),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.revision ? { revision: input.revision } : {}),
    ...(fm.final_decision ? { decision: fm.final_decision } : {}),
    ...(fm.stop_reason ? { stop_reason: fm.stop_reason } : {}),
    rounds: judged,
    findings,
    blocking: findings.filter((f) => f.blocking).map((f) => f.id),
  };
  const undecided = (reason: string): GateResult => ({
    outcome: "undecided",
    exit_code: 2,
    reason: oneLine(reason, 400),
    ...base,
    degraded,
  });
  const { run } = input;
  if (run.status !== "done" || fm.current_phase !== "complete") {
    if (run.status === "failed" && run.error && fm.judges && run.role && isJudgeRole(run.role)) {
      // A judge panel short of its quorum (and of a fallback that could answer): no decision.
      const configured = fm.judges.panel.length;
      const quorum = Math.min(fm.judges.quorum ?? Math.floor(configured / 2) + 1, configured);
      const error = oneLine(run.error.message);
      degraded.push({
        cause: "quorum_missed",
        message: `the judge panel missed its quorum in round ${fm.current_exchange} (${quorum} of ${configured} judges needed${fm.judges.fallback ? ", the fallback judge failed too" : ""}): no decision`,
        role: run.role,
        ...(run.adapter ? { adapter: run.adapter } : {}),
        round: fm.current_exchange,
        code: run.error.code,
        error,
        configured,
      });
      return undecided(
        `undecided: the judge panel missed its quorum (${quorum} of ${configured}); the ${run.role}${run.adapter ? ` (${run.adapter})` : ""} failed: ${error}`,
      );
    }
    if (run.status === "failed" && run.error) {
      const who = run.role ? `the ${run.role}${run.adapter ? ` (${run.adapter})` : ""}` : "the review";
      const error = oneLine(run.error.message);
      degraded.push({
        cause: "seat_failed",
        message: `${who} failed for good in round ${fm.current_exchange}: no decision`,
        ...(run.role ? { role: run.role } : {}),
        ...(run.adapter ? { adapter: run.adapter } : {}),
        round: fm.current_exchange,
        code: run.error.code,
        error,
      });
      return undecided(`undecided: ${who} failed: ${error}`);
    }
    return undecided(
      `undecided: the review did not finish (${run.status}${run.reason ? `: ${run.reason}` : ""}; phase ${fm.current_phase})`,
    );
  }
  if (fm.stop_reason === "budget")
    return undecided(
      `undecided: the ${fm.budget_minutes}-minute budget ran out before a decision (${judged} judged round(s))`,
    );
  const unchecked = findings.filter((f) => uncheckedIds.has(f.id));
  if (unchecked.length > 0) {
    for (const f of unchecked)
      degraded.push({
        cause: "evidence_unchecked",
        message: `${f.id} [${f.severity}] ${oneLine(f.title, 120)}: the judge holds it valid, but the engine could not check its evidence`,
        round: f.round ?? fm.current_exchange,
      });
    const f = unchecked[0]!;
    return undecided(
      `undecided: ${unchecked.length} finding(s) the judge holds valid whose evidence could not be checked, e.g. ${f.id} ${oneLine(f.title, 120)}${where(f)}`,
    );
  }
  const blocking = findings.filter((f) => f.blocking);
  if (blocking.length > 0) {
    const f = blocking[0]!;
    return {
      outcome: "blocked",
      exit_code: 1,
      reason: oneLine(
        `blocked: ${blocking.length} blocking finding(s): ${f.id} [${f.severity}] ${f.title}${where(f)}${blocking.length > 1 ? ", ..." : ""}`,
        400,
      ),
      ...base,
      degraded,
    };
  }
  const decision = fm.final_decision!;
  if (!policy.pass_decisions.includes(decision))
    return {
      outcome: "blocked",
      exit_code: 1,
      reason: `blocked: the review decided ${decision} (${CHOICE[decision]}); the policy passes only ${policy.pass_decisions.join(", ")}`,
      ...base,
      degraded,
    };
  return {
    outcome: "pass",
    exit_code: 0,
    reason: `pass: decision ${decision} (${CHOICE[decision]}), no blocking finding in ${judged} round(s)${degraded.length > 0 ? `; degraded: ${degraded.map((d) => d.cause).join(", ")}` : ""}`,
    ...base,
    degraded,
  };
}

const CHOICE: Record<ReviewChoice, string> = {
  A: "keep",
  B: "accept the critique",
  C: "compromise",
  D: "continue with a rebuttal",
  E: "stop",
};
