// Writes replay.jsonl: the recorded answers of this example (run: node make-replay.mjs).
import { writeFileSync } from "node:fs";

const ev = (kind, ref, detail) => ({ kind, ref, detail });

const P1 = {
  position:
    "Move service-to-service calls inside the cluster from REST/JSON to gRPC, starting with the orders and inventory services; keep the public edge on JSON.",
  points: [
    {
      claim: "Protobuf payloads for the orders list are about a third of the JSON size and parse faster.",
      category: "performance",
      evidence: [
        ev(
          "benchmark",
          "bench/orders-payload.md",
          "orders list, 500 items: 412 KB JSON vs 131 KB protobuf; decode 9.8 ms vs 2.1 ms (p50, Node 20)",
        ),
      ],
    },
    {
      claim:
        "Generated clients remove the hand-written HTTP clients that drifted from the server three times last quarter.",
      category: "correctness",
      evidence: [
        ev(
          "data",
          "incidents/2026-Q3.csv",
          "3 incidents tagged client-contract-drift, 11 engineer-hours of repair",
        ),
      ],
    },
    {
      claim: "Deadlines and cancellation propagate across calls without custom headers.",
      category: "operations",
      unsupported: true,
    },
  ],
};
const C1_BAD = {
  position: "The gains are real but smaller than claimed, and the migration cost lands on every team.",
  points: [
    {
      claim: "Most of the size win comes from field names; gzip already removes it on the wire.",
      stance: "flaw",
      targets: ["P1.1"],
      category: "correctness",
      evidence: [
        ev(
          "benchmark",
          "bench/orders-gzip.md",
          "gzip'd JSON 58 KB vs gzip'd protobuf 49 KB for the same 500 items",
        ),
      ],
    },
    {
      claim: "Every team must learn protoc, buf and a new debugging workflow.",
      category: "developer_experience",
      evidence: [ev("doc", "docs/onboarding.md", "current onboarding covers curl and OpenAPI only")],
    },
  ],
};
const C1 = {
  position: "The gains are real but smaller than claimed, and the migration cost lands on every team.",
  points: [
    {
      claim: "Most of the size win comes from field names; gzip already removes it on the wire.",
      stance: "flaw",
      targets: ["P1.1"],
      category: "correctness",
      evidence: [
        ev(
          "benchmark",
          "bench/orders-gzip.md",
          "gzip'd JSON 58 KB vs gzip'd protobuf 49 KB for the same 500 items",
        ),
      ],
    },
    {
      claim:
        "gRPC needs mTLS between services, which we do not run today; a half-configured mesh is new attack surface.",
      stance: "flaw",
      targets: ["P1.3"],
      category: "security",
      evidence: [ev("file", "infra/mesh/README.md", "mTLS is listed as 'planned', no certificates issued")],
    },
    {
      claim: "Every team must learn protoc, buf and a new debugging workflow; curl no longer works.",
      category: "developer_experience",
      evidence: [ev("doc", "docs/onboarding.md", "current onboarding covers curl and OpenAPI only")],
    },
  ],
  concessions: [
    { text: "Protobuf decoding is faster than JSON parsing for the orders payload.", target: "P1.1" },
  ],
};
const P2 = {
  position:
    "Migrate orders and inventory first, behind mTLS that we turn on as part of the migration; measure before moving more.",
  points: [
    {
      claim: "Even after gzip, protobuf saves CPU: decode time, not bytes, dominates the orders path.",
      stance: "flaw",
      targets: ["C1.1"],
      category: "performance",
      evidence: [
        ev("benchmark", "bench/orders-cpu.md", "orders service spends 31% of CPU in JSON.parse at peak"),
      ],
    },
    {
      claim: "mTLS is a prerequisite we need anyway for the SOC 2 audit, so it is not a cost of gRPC alone.",
      targets: ["C1.2"],
      category: "security",
      evidence: [
        ev(
          "doc",
          "compliance/soc2-plan.md",
          "control CC6.7 requires encryption in transit between services by Q2",
        ),
      ],
    },
    {
      claim: "grpcurl and buf curl give engineers a curl-like workflow.",
      targets: ["C1.3"],
      category: "developer_experience",
      evidence: [
        ev(
          "doc",
          "https://github.com/fullstorydev/grpcurl",
          "command-line client for gRPC servers using reflection",
        ),
      ],
    },
  ],
  concessions: [
    { text: "Browser clients cannot call gRPC directly without a grpc-web proxy.", target: "C1.3" },
  ],
};
const C2 = {
  position:
    "A pilot on orders is reasonable; a company-wide migration is not justified by the evidence so far.",
  points: [
    {
      claim:
        "31% CPU in JSON.parse is measured at peak only; the median is 9%, so the saving is one small instance.",
      stance: "flaw",
      targets: ["P2.1"],
      category: "cost",
      evidence: [
        ev("data", "metrics/orders-cpu-30d.csv", "median share of CPU in JSON.parse over 30 days: 9.2%"),
      ],
    },
    {
      claim: "The SOC 2 point is settled: mTLS is needed either way.",
      stance: "resolved",
      targets: ["P2.2"],
      category: "security",
      evidence: [ev("doc", "compliance/soc2-plan.md", "CC6.7 applies whatever the protocol")],
    },
  ],
};
const SUMMARY = {
  summary:
    "Round 1. The proposer (P1.1-P1.3) argued that moving internal service-to-service calls from REST/JSON to gRPC pays off: " +
    "P1.1 cited bench/orders-payload.md (412 KB JSON vs 131 KB protobuf for 500 orders, decode 9.8 ms vs 2.1 ms p50); " +
    "P1.2 cited incidents/2026-Q3.csv (three client-contract-drift incidents, 11 engineer-hours) as the case for generated clients; " +
    "P1.3, on deadline and cancellation propagation, was marked unsupported. " +
    "The challenger answered with three points. C1.1 attacked P1.1: with gzip on the wire the size gap nearly closes " +
    "(bench/orders-gzip.md: 58 KB vs 49 KB). C1.2 attacked P1.3's operational story from the security side: gRPC between " +
    "services needs mTLS, which infra/mesh/README.md lists as planned with no certificates issued, so a half-configured mesh " +
    "is new attack surface. C1.3 raised the developer-experience cost: protoc, buf and a new debugging workflow for every team, " +
    "with docs/onboarding.md covering only curl and OpenAPI today. The challenger conceded that protobuf decoding is faster " +
    "than JSON parsing for the orders payload. Neither side has yet produced a measurement of end-to-end latency, and the " +
    "proposer's claim about deadlines remains without evidence. The disagreement after round 1 is about magnitude and cost, " +
    "not direction: both sides accept that protobuf is more compact and faster to decode, and disagree on whether that " +
    "matters once compression is on and once the migration and security prerequisites are priced in. " +
    "Round 2 is shown in full after this summary.",
  positions: {
    proposer:
      "Move internal calls to gRPC, starting with orders and inventory; keep the public edge on JSON.",
    challenger:
      "The gains are smaller than claimed once gzip is on, and the migration cost (mTLS, tooling, training) lands on every team.",
  },
  concessions: ["Protobuf decoding is faster than JSON parsing for the orders payload."],
  open_disagreements: [
    "Whether the size and CPU savings matter once gzip is enabled (C1.1 vs P1.1).",
    "Whether mTLS is a cost of gRPC or a prerequisite needed anyway.",
    "How much the tooling change costs teams, and whether grpcurl closes the gap.",
  ],
};
const P3 = {
  position:
    "Run a pilot on orders with mTLS on, and decide on the rest from the pilot's measured CPU and incident numbers.",
  points: [
    {
      claim: "A pilot bounds the cost the challenger worries about to one team and one quarter.",
      targets: ["C2.1"],
      category: "cost",
      evidence: [
        ev(
          "doc",
          "plans/orders-grpc-pilot.md",
          "pilot scope: orders service, 1 team, 10 weeks, exit criteria defined",
        ),
      ],
    },
  ],
};
const C3 = {
  position:
    "Agreed on a pilot; the exit criteria must include median CPU and developer time, not peak CPU alone.",
  points: [
    {
      claim: "The pilot's exit criteria measure peak CPU only, which overstates the benefit.",
      stance: "flaw",
      targets: ["P3.1"],
      category: "correctness",
      evidence: [
        ev(
          "doc",
          "plans/orders-grpc-pilot.md#exit",
          "exit criterion 1: 'peak CPU in serialization reduced by 20%'",
        ),
      ],
    },
  ],
};
const VERDICT = {
  winner: "challenger",
  reasoning:
    "Both sides converged on a pilot, but the challenger's evidence decided its shape: C1.1 showed that gzip removes most of P1.1's size advantage, C2.1 showed that the CPU argument of P2.1 rests on a peak (31%) while the median is 9%, and C3.1 caught that the pilot's exit criteria repeat that bias. The proposer's strongest evidence, P1.2 (contract-drift incidents), stands and justifies generated clients, which do not require gRPC.",
  cited_points: ["C1.1", "C2.1", "C3.1", "P1.1", "P1.2", "P2.1"],
  ratings: { genuine_disagreement: "medium", evidence_quality: "high", challenge_depth: "high" },
  agreements: [
    {
      text: "Protobuf decoding is faster than JSON parsing for the orders payload.",
      points: ["P1.1", "C1.1"],
    },
    { text: "mTLS between services is needed for SOC 2 whatever the protocol.", points: ["P2.2", "C2.2"] },
  ],
  disagreements: ["Whether the CPU saving justifies migrating more than the orders service."],
  unresolved: [
    "End-to-end latency was never measured.",
    "The cost of running a grpc-web proxy for browser clients.",
  ],
  recommendation:
    "Run the orders pilot with mTLS on, but change its exit criteria to median CPU, p95 latency and engineer-hours spent; meanwhile generate typed JSON clients from the OpenAPI spec to stop contract drift now.",
};

const lines = [
  { exchange: 1, role: "proposer", text: JSON.stringify(P1, null, 2) },
  // The first challenge leaves out security: the engine rejects it (CROSSFIRE_CATEGORY_MISSING) and asks again.
  { exchange: 1, role: "challenger", attempt: 1, text: JSON.stringify(C1_BAD, null, 2) },
  {
    exchange: 1,
    role: "challenger",
    attempt: 2,
    text: "Here is my corrected challenge:\n```json\n" + JSON.stringify(C1, null, 2) + "\n```",
  },
  { exchange: 2, role: "proposer", text: JSON.stringify(P2, null, 2) },
  { exchange: 2, role: "challenger", text: JSON.stringify(C2, null, 2) },
  { exchange: 3, role: "summarizer", text: JSON.stringify(SUMMARY, null, 2) },
  { exchange: 3, role: "proposer", text: JSON.stringify(P3, null, 2) },
  { exchange: 3, role: "challenger", text: JSON.stringify(C3, null, 2) },
  { exchange: 3, role: "judge", text: JSON.stringify(VERDICT, null, 2) },
];
writeFileSync(
  new URL("replay.jsonl", import.meta.url),
  lines.map((line) => `${JSON.stringify(line)}\n`).join(""),
);
const total = [
  SUMMARY.summary,
  ...Object.values(SUMMARY.positions),
  ...SUMMARY.concessions,
  ...SUMMARY.open_disagreements,
]
  .map((x) => x.length)
  .reduce((a, b) => a + b, 0);
console.log(`summary: ${total} chars, ~${Math.ceil(total / 4)} tokens`);
