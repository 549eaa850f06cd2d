// Builders for crossfire tests: a fresh state, valid answers, and a driver through the format.
import type {
  CrossfireFrontmatter,
  CrossfireSummary,
  CrossfireTurn,
  CrossfireVerdict,
} from "@debatekit/schema";
import { crossfireFormat } from "../formats/crossfire/format.js";
import type { CrossfireState } from "../formats/crossfire/state.js";

export function crossfireState(overrides: Partial<CrossfireFrontmatter> = {}): CrossfireState {
  const fm: CrossfireFrontmatter = {
    debate_id: "grpc",
    format: "crossfire",
    rounds: 2,
    current_exchange: 1,
    current_phase: "awaiting_proposer",
    seats: {
      proposer: { adapter: "replay" },
      challenger: { adapter: "replay" },
      judge: { adapter: "replay" },
    },
    ...overrides,
  };
  return {
    frontmatter: fm,
    body: "# Motion\n\nShould we move the API to gRPC?\n",
    motion: { text: "Should we move the API to gRPC?" },
    arguments: [],
    scores: {},
    records: [],
  };
}

export const ev = (ref: string, kind: "file" | "code" | "benchmark" | "doc" | "data" = "benchmark") => ({
  kind,
  ref,
  detail: `what ${ref} shows`,
});

/** A valid proposer turn (opening or defense). */
export function proposerTurn(extra: Partial<CrossfireTurn> = {}): CrossfireTurn {
  return {
    position: "Move internal calls to gRPC.",
    points: [
      {
        claim: "Protobuf payloads are smaller.",
        category: "performance",
        evidence: [ev("bench/payload.md")],
      },
      { claim: "Typed clients catch drift.", category: "developer_experience", unsupported: true },
    ],
    ...extra,
  };
}

/** A valid challenger turn for `round` (round 1 covers the three required categories). */
export function challengerTurn(round: number, extra: Partial<CrossfireTurn> = {}): CrossfireTurn {
  const target = `P${round}.1`;
  return {
    position: "Keep JSON for the public API.",
    points: [
      {
        claim: "Transcoding eats the size win.",
        stance: "flaw",
        targets: [target],
        category: "correctness",
        evidence: [ev(`bench/proxy-r${round}.md`)],
      },
      {
        claim: "mTLS config is new attack surface.",
        category: "security",
        evidence: [ev("doc/tls.md", "doc")],
      },
      {
        claim: "Browser clients need grpc-web.",
        category: "developer_experience",
        evidence: [ev("doc/grpc-web.md", "doc")],
      },
    ],
    ...extra,
  };
}

/** A summary of 500-800 estimated tokens quoting `concessions`. */
export function summaryAnswer(
  concessions: string[],
  extra: Partial<CrossfireSummary> = {},
): CrossfireSummary {
  const sentence =
    "The proposer argued P1.1 on payload size with a benchmark, and the challenger answered with C1.1 on transcoding cost. ";
  return {
    summary: sentence.repeat(20),
    positions: { proposer: "Move internal calls to gRPC.", challenger: "Keep JSON for the public API." },
    concessions,
    open_disagreements: ["Whether the proxy's latency matters."],
    ...extra,
  };
}

export function verdictAnswer(extra: Partial<CrossfireVerdict> = {}): CrossfireVerdict {
  return {
    winner: "challenger",
    reasoning: "C1.1 showed that P1.1's size win is eaten by transcoding.",
    cited_points: ["C1.1", "P1.1"],
    ratings: { genuine_disagreement: "high", evidence_quality: "medium", challenge_depth: "high" },
    agreements: [{ text: "Payloads are smaller in protobuf.", points: ["P1.1"] }],
    disagreements: ["Whether the public API should move."],
    unresolved: ["The proxy's cost."],
    recommendation: "Move internal service calls to gRPC; keep the public API on JSON.",
    ...extra,
  };
}

/** Parses and applies one answer; throws with the errors when the format refuses it. */
export function step(state: CrossfireState, role: string, answer: unknown): CrossfireState {
  const parsed = crossfireFormat.parseAnswer(state, role, JSON.stringify(answer));
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => `${e.code} ${e.path}: ${e.message}`).join("\n"));
  const next = crossfireFormat.apply(state, { [role]: parsed.value }, "2026-01-01T00:00:00Z");
  if (!next.ok) throw new Error(next.errors.map((e) => e.code).join(", "));
  return next.value;
}

export const fm = (state: CrossfireState): CrossfireFrontmatter => state.frontmatter;
