import { unquoteGitPath } from "@debatekit/core";
import type { GateHiddenUnicode } from "@debatekit/schema";

// Characters a person does not see but a model reads: zero-width characters, bidirectional controls
// (which reorder what is shown, "Trojan Source"), the byte-order mark inside text, and Unicode tag
// characters (which spell ASCII invisibly). A change carrying them is a known carrier of prompt
// injection: the reviewers may read instructions nobody reviewing the pull request can see.
const HIDDEN =
  /\u034F|[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/gu;

/** The hidden characters of `text`, each once, as `U+XXXX`. */
export function hiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(HIDDEN))
    found.add(`U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  return [...found];
}

/** `text` with each hidden character written out as `<U+XXXX>`, so showing it hides nothing. */
export function revealHidden(text: string): string {
  return text.replace(HIDDEN, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`);
}

/**
 * Where a review's artifact (a diff, as `debate gate` snapshots it) adds hidden characters: each
 * added line by its file and line on the new side; text before the first file (a commit message)
 * as `commit message`. The repository section after the diff (whole files) is not the change.
 */
export function hiddenUnicodeInDiff(artifact: string): GateHiddenUnicode[] {
  const out: GateHiddenUnicode[] = [];
  let file: string | undefined;
  let line = 0;
  let inDiff = false;
  for (const text of artifact.split(/\r?\n/)) {
    if (/^## Repository at /.test(text)) break;
    if (text.startsWith("diff --git ")) inDiff = true;
    const plus = /^\+\+\+ (.+)$/.exec(text);
    if (plus) {
      const path = unquoteGitPath(plus[1]!);
      file = path === "/dev/null" ? undefined : path.replace(/^b\//, "");
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      line = Number(hunk[1]);
      continue;
    }
    const chars = hiddenCharacters(text);
    if (!inDiff) {
      if (chars.length > 0) out.push({ in: "commit message", chars });
      continue;
    }
    if (text.startsWith("+") && file !== undefined) {
      if (chars.length > 0) out.push({ in: "code", file, line, chars });
      line++;
    } else if (text.startsWith(" ")) line++;
  }
  return out;
}
