import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { validateGateResult } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSumRepo } from "./gate-fixtures.js";
import { runDebateAsync } from "./workspace.js";

// The gate's verdict must be right, end to end through the built CLI on a real git repository
// (main, then a change with an off-by-one): a valid verified P1 is never lost beside another
// finding of its round, and evidence that does not hold is never `verified`. Every seat is an
// `http` seat on the loopback model server, which answers by model name.

const offByOne = {
  severity: "P1",
  title: "Off-by-one drops the last element",
  detail: "The loop stops at xs.length - 1, so sum([1, 2, 3]) returns 3.",
  evidence: { file: "sum.ts", line: 3, quote: "i < xs.length - 1" },
  suggestion: "Loop while i < xs.length.",
};
/** A verified P1 on line 3 and a style nit on line 4 of the same file. */
const nearCritique = JSON.stringify({
  findings: [
    offByOne,
    {
      severity: "P3",
      title: "Name the accumulator after what it holds",
      detail: "`total` is fine, but `sum` reads better.",
      evidence: { file: "sum.ts", line: 4, quote: "return total;" },
    },
  ],
  recommendation: "C",
  agree: false,
});
const nearJudgment = JSON.stringify({
  classifications: [
    { finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 stops one short." },
    { finding_id: "r01-f2", verdict: "valid", reasoning: "A fair nit." },
  ],
  recommendation: "C",
  reasons: ["Fix the loop bound, keep the rest."],
});

/** Four P1s whose evidence looks right and is not: each must be needs_evidence, none may block. */
const badEvidence = [
  { title: "Loop bound in a file that does not exist", file: "nope.ts", quote: "i < xs.length - 1" },
  { title: "Quote only in a removed line", file: "sum.ts", line: 3, quote: "i < xs.length; i++" },
  { title: "Line 1 quoting line 4", file: "sum.ts", line: 1, quote: "return total;" },
  { title: "Quote of the framing text", file: "sum.ts", line: 1, quote: "Changes since main" },
];
const badCritique = JSON.stringify({
  findings: badEvidence.map(({ title, ...evidence }) => ({ severity: "P1", title, detail: title, evidence })),
  recommendation: "B",
  agree: false,
});
const badJudgment = JSON.stringify({
  classifications: badEvidence.map((_, i) => ({
    finding_id: `r01-f${i + 1}`,
    verdict: "valid",
    reasoning: "Looks right.",
  })),
  recommendation: "E",
  reasons: ["Stop here."],
});

/** A P1 about removed code: its evidence is on the old side (the file before the change). */
const removedCritique = JSON.stringify({
  findings: [
    {
      severity: "P1",
      title: "The full loop bound was removed",
      detail: "The old loop ran to xs.length; the change drops the last element.",
      evidence: { file: "sum.ts", line: 3, quote: "i < xs.length; i++", side: "old" },
    },
  ],
  recommendation: "B",
  agree: false,
});
const removedJudgment = JSON.stringify({
  classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "The bound lost its last step." }],
  recommendation: "B",
  reasons: ["A verified P1."],
});

/**
 * Two rounds over unchanged code: round 1 a verified P1 judged valid (compromise: go on), round 2
 * only a P3 on another line whose title shares most of the P1's words, judged valid (keep).
 */
const eraseCritique = (request: ModelRequest) =>
  JSON.stringify(
    request.lastUserText.includes("### Round 1 (")
      ? {
          findings: [
            {
              severity: "P3",
              title: "Loop comment: last element wording",
              detail: "Say in a comment what the loop covers.",
              evidence: { file: "sum.ts", line: 1, quote: "export function sum" },
            },
          ],
          recommendation: "A",
          agree: false,
        }
      : { findings: [{ ...offByOne, title: "Loop drops last element" }], recommendation: "C", agree: false },
  );
/** Round 2 repeats the P1 over the same code, reworded, and the judge calls it invalid (keep). */
const talkedCritique = (request: ModelRequest) =>
  JSON.stringify(
    request.lastUserText.includes("### Round 1 (")
      ? {
          findings: [{ ...offByOne, title: "The loop drops the last element" }],
          recommendation: "A",
          agree: false,
        }
      : { findings: [offByOne], recommendation: "C", agree: false },
  );
const eraseJudgment = (request: ModelRequest, round2 = "valid") =>
  request.lastUserText.includes("r02-f1")
    ? JSON.stringify({
        classifications: [{ finding_id: "r02-f1", verdict: round2, reasoning: "Fine as it is." }],
        recommendation: "A",
        reasons: ["Only a nit is left."],
      })
    : JSON.stringify({
        classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 stops one short." }],
        recommendation: "C",
        reasons: ["Fix the loop bound."],
      });

function reply(request: ModelRequest) {
  if (request.model === "critic-erase") return eraseCritique(request);
  if (request.model === "judge-erase") return eraseJudgment(request);
  if (request.model === "critic-talked") return talkedCritique(request);
  if (request.model === "judge-talked") return eraseJudgment(request, "invalid");
  const answers: Record<string, string> = {
    "critic-near": nearCritique,
    "judge-near": nearJudgment,
    "critic-bad": badCritique,
    "judge-bad": badJudgment,
    "critic-removed": removedCritique,
    "judge-removed": removedJudgment,
    author:
      "# sum.ts\n\n```ts\nexport function sum(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n```\n",
  };
  return answers[request.model] ?? "?";
}

let work: string;
let repo: string;
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer(reply);
  work = await mkdtemp(join(tmpdir(), "gate-verdict-"));
  repo = join(work, "repo");
  await createSumRepo(repo, "buggy");
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs `debate gate --scope base:main` with the critic and judge answering as `critic-<name>` and `judge-<name>`. */
async function gate(name: string, extra: string[] = []) {
  const seat = (model: string) => ({
    adapter: "http",
    base_url: `${server.url}/v1`,
    model,
    timeout_ms: 30_000,
  });
  const policy = join(work, `${name}.json`);
  await writeFile(
    policy,
    JSON.stringify({ critic: seat(`critic-${name}`), judge: seat(`judge-${name}`), author: seat("author") }),
  );
  const out = { sarif: join(work, `${name}.sarif`), comment: join(work, `${name}.md`) };
  const { code, stdout, stderr } = await runDebateAsync(
    [
      "gate",
      "--dir",
      join(work, "debates"),
      "--scope",
      "base:main",
      "--policy",
      policy,
      "--json",
      "--sarif",
      out.sarif,
      "--comment",
      out.comment,
      ...extra,
    ],
    repo,
    { ...process.env, NO_COLOR: "1", CI: "1", GITHUB_STEP_SUMMARY: "" },
  );
  return {
    code,
    stderr,
    result: JSON.parse(stdout),
    sarif: JSON.parse(await readFile(out.sarif, "utf8")),
    comment: await readFile(out.comment, "utf8"),
  };
}

describe("debate gate: the verdict is right", () => {
  it("a valid verified P1 beside a P3 a line away blocks (exit 1); both are in --json, SARIF and the comment", async () => {
    const run = await gate("near");
    expect(run.stderr).toContain(
      "gate: blocked: 1 blocking finding(s): r01-f1 [P1] Off-by-one drops the last element (sum.ts:3)\n",
    );
    expect(run.code).toBe(1);
    expect(validateGateResult(run.result).ok).toBe(true);
    expect(run.result).toMatchObject({
      outcome: "blocked",
      exit_code: 1,
      decision: "C",
      blocking: ["r01-f1"],
    });
    expect(
      run.result.findings.map((f: Record<string, unknown>) => [
        f.id,
        f.severity,
        f.line,
        f.evidence_status,
        f.blocking,
      ]),
    ).toEqual([
      ["r01-f1", "P1", 3, "verified", true],
      ["r01-f2", "P3", 4, "verified", false],
    ]);
    expect(run.result.findings[0].fingerprint).not.toBe(run.result.findings[1].fingerprint);
    expect(
      run.sarif.runs[0].results.map(
        (r: { ruleId: string; locations: { physicalLocation: { region: object } }[] }) => [
          r.ruleId,
          r.locations[0]!.physicalLocation.region,
        ],
      ),
    ).toEqual([
      ["P1", { startLine: 3 }],
      ["P3", { startLine: 4 }],
    ]);
    expect(run.comment).toContain("## ❌ debatekit gate: **blocked** (exit 1)");
    expect(run.comment).toContain(
      "| **blocks** | P1 | Off-by-one drops the last element | `sum.ts:3` | valid | verified |",
    );
    expect(run.comment).toContain(
      "| P3 | Name the accumulator after what it holds | `sum.ts:4` | valid | verified |",
    );
  });

  it("evidence that does not hold is needs_evidence, never a verified P1: a missing file, a removed line, a quote 3 lines off, the framing text (exit 2)", async () => {
    const run = await gate("bad");
    expect(run.code).toBe(2);
    expect(validateGateResult(run.result).ok).toBe(true);
    expect(run.result).toMatchObject({ outcome: "undecided", exit_code: 2, blocking: [] });
    expect(run.result.reason).toMatch(
      /^undecided: 4 finding\(s\) the judge holds valid whose evidence could not be checked/,
    );
    expect(
      run.result.findings.map((f: Record<string, unknown>) => [
        f.title,
        f.severity,
        f.verdict,
        f.evidence_status,
      ]),
    ).toEqual(badEvidence.map((b) => [b.title, "P2", "needs_evidence", "needs_evidence"]));
    expect(run.sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
      "P2",
      "P2",
      "P2",
      "P2",
    ]);
    expect(run.comment).not.toContain("verified |");
  });

  it("a finding about removed code (`side: old`) is checked on the file before the change: verified, it blocks (exit 1)", async () => {
    const run = await gate("removed");
    expect(run.code).toBe(1);
    expect(run.result.findings).toMatchObject([
      {
        id: "r01-f1",
        severity: "P1",
        line: 3,
        side: "old",
        verdict: "valid",
        evidence_status: "verified",
        blocking: true,
      },
    ]);
    // Line 3 is a line of the file before the change: code scanning shows the file as changed, so
    // the result names the file without a region, and says where the line was.
    const [result] = run.sarif.runs[0].results;
    expect(result.ruleId).toBe("P1");
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "sum.ts", uriBaseId: "%SRCROOT%" },
    });
    expect(result.message.text).toContain("At line 3 of the file before the change");
    expect(run.comment).toContain(
      "| **blocks** | P1 | The full loop bound was removed | `sum.ts:3` (before the change) | valid | verified |",
    );
  });

  it("a later round cannot erase a verified P1: a P3 on another line, alike in words, leaves it blocking (exit 1)", async () => {
    const run = await gate("erase", ["--intensity", "standard"]);
    expect(run.result).toMatchObject({ outcome: "blocked", exit_code: 1, decision: "A", rounds: 2 });
    expect(run.code).toBe(1);
    expect(run.result.blocking).toEqual(["r01-f1"]);
    expect(
      run.result.findings.map((f: Record<string, unknown>) => [f.id, f.severity, f.line, f.blocking]),
    ).toEqual([
      ["r01-f1", "P1", 3, true],
      ["r02-f1", "P3", 1, false],
    ]);
    expect(run.result.findings[0].fingerprint).not.toBe(run.result.findings[1].fingerprint);
    expect(run.sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(["P1", "P3"]);
  });

  it("nor can a later judge's `invalid` on its repeat over unchanged code: the round-1 P1 still blocks (exit 1)", async () => {
    const run = await gate("talked", ["--intensity", "standard"]);
    expect(run.result).toMatchObject({ outcome: "blocked", exit_code: 1, decision: "A", rounds: 2 });
    expect(run.code).toBe(1);
    expect(run.result.findings.map((f: Record<string, unknown>) => [f.id, f.verdict, f.blocking])).toEqual([
      ["r01-f1", "valid", true],
    ]);
  });
});
