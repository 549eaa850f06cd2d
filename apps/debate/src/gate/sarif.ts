import { escapeSarifText, sarifArtifactUri } from "@debatekit/report";
import type { GateFinding, GateResult } from "@debatekit/schema";
import type { Log, ReportingDescriptor, Result } from "sarif";

const LEVEL = { P1: "error", P2: "warning", P3: "note" } as const;
const RULES: ReportingDescriptor[] = [
  { id: "P1", name: "MustFix", shortDescription: { text: "P1: must fix before merging" } },
  { id: "P2", name: "ShouldFix", shortDescription: { text: "P2: should fix" } },
  { id: "P3", name: "Consider", shortDescription: { text: "P3: worth considering" } },
].map((r) => ({ ...r, defaultConfiguration: { level: LEVEL[r.id as "P1"] } }));

/**
 * One finding as a SARIF result. Its location is the cited file only when that is a repository-
 * relative path of a file in the change; any other path (absolute, `..`, a URI, a file the change
 * does not touch) is named in the message, quoted, and the result has no location. The model's
 * text makes no embedded link of its own.
 */
function sarifResult(f: GateFinding, changed: ReadonlySet<string>): Result {
  const uri = f.file === undefined ? undefined : sarifArtifactUri(f.file, changed);
  const elsewhere =
    f.file !== undefined && uri === undefined
      ? `\n\nCited file: ${JSON.stringify(f.file)}${f.line ? ` line ${f.line}` : ""} (not a file of this change, so no location).`
      : f.side === "old" && f.line
        ? `\n\nAt line ${f.line} of the file before the change (removed code).`
        : "";
  const text = `${f.title}\n\n${f.detail}${f.suggestion ? `\n\nSuggestion: ${f.suggestion}` : ""}${elsewhere}`;
  return {
    ruleId: f.severity,
    ruleIndex: Number(f.severity.slice(1)) - 1,
    level: LEVEL[f.severity],
    message: { text: escapeSarifText(text) },
    ...(uri
      ? {
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri, uriBaseId: "%SRCROOT%" },
                // A line of the file before the change is not a line of the file code scanning shows.
                ...(f.line && f.side !== "old" ? { region: { startLine: f.line } } : {}),
              },
            },
          ],
        }
      : {}),
    ...(f.fingerprint ? { partialFingerprints: { "debatekitFinding/v1": f.fingerprint } } : {}),
    // The judge's `invalid` is an external reviewer's suppression: code scanning hides it, the file keeps it.
    ...(f.verdict === "invalid"
      ? { suppressions: [{ kind: "external", status: "accepted", justification: "judged invalid" }] }
      : {}),
    properties: {
      id: f.id,
      severity: f.severity,
      verdict: f.verdict,
      evidence: f.evidence_status,
      blocking: f.blocking,
      ...(f.round ? { round: f.round } : {}),
    },
  };
}

/**
 * SARIF 2.1.0 of a gate's result: one result per finding (file, line, severity, the judge's verdict,
 * evidence state). `changed` holds the repository-relative paths of the change's files: the only
 * files a result may point at.
 */
export function renderGateSarif(result: GateResult, version: string, changed: ReadonlySet<string>): Log {
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "debatekit",
            semanticVersion: version,
            informationUri: "https://github.com/debatekit/debatekit",
            rules: RULES,
          },
        },
        invocations: [
          {
            // Undecided is a review that could not be completed or trusted: not a successful run.
            executionSuccessful: result.outcome !== "undecided",
            exitCode: result.exit_code,
            exitCodeDescription: result.outcome,
            toolExecutionNotifications: [
              {
                level: result.outcome === "undecided" ? "error" : "note",
                message: { text: escapeSarifText(result.reason) },
              },
              ...result.degraded.map((d) => ({
                level: "warning" as const,
                message: {
                  text: escapeSarifText(
                    `degraded (${d.cause}): ${d.message}${d.error ? `: ${d.error}` : ""}`,
                  ),
                },
              })),
            ],
          },
        ],
        results: result.findings.map((f) => sarifResult(f, changed)),
        properties: {
          outcome: result.outcome,
          ...(result.decision ? { decision: result.decision } : {}),
          ...(result.scope ? { scope: result.scope } : {}),
          degraded: result.degraded.map((d) => d.cause),
        },
      },
    ],
  };
}
