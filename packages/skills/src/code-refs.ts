/**
 * The words a motion gets for each reference to specific code in it: a source file path
 * (`src/store/memo.ts`, `charge.go`), a pull request or issue number (`PR #4821`, `#212`) or a commit
 * hash (`9f3c2ab`). A skill about citing code (trigger `code reference`) is then chosen for what the
 * motion points at, not for the words "pull request" or "commit", which mostly name a process
 * ("every pull request should ...", "commit messages should ...").
 */
export const CODE_REFERENCE_WORDS = "code reference";

// Extensions of source files. `.js` names need a folder or a lowercase name: "Node.js" and
// "Vue.js" are products, not files.
const EXTENSIONS =
  "ts|tsx|mts|cts|jsx|mjs|cjs|go|py|rb|java|kt|kts|rs|c|h|cc|cpp|hpp|cs|swift|php|sql|scala|sh|vue|svelte|ex|exs|erl|clj|lua|dart|m|mm";
const PATH = new RegExp(
  `(?<![\\w./-])(?:[\\w.-]+/)+[\\w.-]+\\.(?:${EXTENSIONS}|js)(?![\\w])|(?<![\\w./-])[a-z0-9_-]+\\.(?:${EXTENSIONS}|js)(?![\\w])`,
  "gu",
);
// `#212` with at least two digits ("#1 priority" is not a pull request), optionally after PR/MR.
const CHANGE = /(?<![\w&])(?:(?:PR|MR)\s*)?#\d{2,}(?!\w)/gu;
// A git hash as people quote it: 7 to 40 hex digits with at least one digit and one letter.
const HASH = /(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/gu;

const ANY = new RegExp(`${PATH.source}|${CHANGE.source}|${HASH.source}`, "gu");

/** The code references in a text, in order of appearance. */
export function findCodeReferences(text: string): string[] {
  return [...text.matchAll(ANY)].map((m) => m[0]);
}

/**
 * The text with `(code reference)` after each reference to specific code, so triggers and the
 * ranked match see it as words; unchanged when it has none.
 */
export function annotateCodeReferences(text: string): string {
  return text.replace(ANY, (ref) => `${ref} (${CODE_REFERENCE_WORDS})`);
}
