import type { ReviewFinding } from "@debatekit/schema";

/**
 * What evidence is checked against: the artifact's text and, for a git scope, the repository's files
 * at the scope's revision (read by the caller; core does no I/O). `file` returns undefined for a
 * file that does not exist there.
 */
export interface EvidenceSources {
  artifact: string;
  /** Path as the artifact names it (`src/a.ts`) -> its text at the revision; absent when not a git scope. */
  file?: (path: string) => string | undefined;
}

/** Findings after evidence checking, and how many were verified. */
export interface VerifiedFindings {
  findings: ReviewFinding[];
  verified: number;
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function contains(haystack: string, needle: string): boolean {
  return squash(haystack).includes(squash(needle));
}

/** The lines of `path` as the artifact shows them: a diff's `+++ b/path` hunk (new-side line numbers), or a `path:` fenced block. */
export function artifactFileLines(artifact: string, path: string): Map<number, string> | undefined {
  const lines = artifact.split(/\r?\n/);
  const found = new Map<number, string>();
  let inFile = false;
  let line = 0;
  let any = false;
  for (const text of lines) {
    const header = /^\+\+\+ (?:b\/)?(.+?)\s*$/.exec(text);
    if (header) {
      inFile = header[1] === path;
      any ||= inFile;
      continue;
    }
    if (!inFile) continue;
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      line = Number(hunk[1]);
      continue;
    }
    if (/^diff --git /.test(text)) {
      inFile = false;
      continue;
    }
    if (line === 0 || text.startsWith("-")) continue;
    found.set(line, text.slice(1));
    line++;
  }
  return any ? found : undefined;
}

function lineExists(sources: EvidenceSources, file: string, line: number): boolean | undefined {
  const repo = sources.file?.(file);
  if (repo !== undefined) return line <= repo.split(/\r?\n/).length;
  const shown = artifactFileLines(sources.artifact, file);
  if (shown) return shown.has(line);
  if (file.startsWith("artifact/") || file === "artifact")
    return line <= sources.artifact.split(/\r?\n/).length;
  return undefined;
}

/** Checks one finding's evidence: file:line must exist, a quote must appear (near the line when one is given). */
export function evidenceHolds(sources: EvidenceSources, evidence: ReviewFinding["evidence"]): boolean {
  if (!evidence || (!evidence.file && !evidence.quote)) return false;
  if (evidence.file && evidence.line !== undefined) {
    if (lineExists(sources, evidence.file, evidence.line) !== true) return false;
  } else if (evidence.file && !evidence.quote) {
    const known =
      sources.file?.(evidence.file) !== undefined || artifactFileLines(sources.artifact, evidence.file);
    if (!known) return false;
  }
  if (evidence.quote) {
    const repo = evidence.file ? sources.file?.(evidence.file) : undefined;
    if (
      !contains(sources.artifact, evidence.quote) &&
      !(repo !== undefined && contains(repo, evidence.quote))
    )
      return false;
  }
  return true;
}

/**
 * Marks each finding `verified` or `needs_evidence` (DESIGN §3.4): a finding whose file:line or quote
 * is not found, or that gives none, cannot stay P1 (it becomes P2).
 */
export function verifyFindings(
  findings: readonly ReviewFinding[],
  sources: EvidenceSources,
): VerifiedFindings {
  let verified = 0;
  const out = findings.map((f): ReviewFinding => {
    if (evidenceHolds(sources, f.evidence)) {
      verified++;
      return { ...f, evidence_status: "verified" };
    }
    return { ...f, severity: f.severity === "P1" ? "P2" : f.severity, evidence_status: "needs_evidence" };
  });
  return { findings: out, verified };
}
