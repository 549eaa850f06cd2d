/** What a review looks at. */
export type ReviewTarget = "code" | "proposal" | "mixed";

const FENCE = /^(```|~~~)/m;
const DIFF = /^(diff --git |@@ -\d+|\+\+\+ |--- a\/)/m;
const PROPOSAL_HEADING =
  /^#{1,6}\s.*\b(design|proposal|approach|decision|trade-?offs?|rebuttal|response|plan|motivation|alternatives?)\b/im;

/** `auto` target detection: a diff or a fence means code, a proposal heading means proposal, both mixed; neither: proposal. */
export function detectTarget(text: string): ReviewTarget {
  const code = FENCE.test(text) || DIFF.test(text);
  const proposal = PROPOSAL_HEADING.test(text);
  if (code && proposal) return "mixed";
  if (code) return "code";
  return "proposal";
}

/**
 * The mixed split: fenced blocks (and a bare diff) are the code part, the rest the proposal part.
 * When one part is empty the target falls back to the other.
 */
export function splitMixed(text: string): { target: ReviewTarget; code: string; proposal: string } {
  const code: string[] = [];
  const prose: string[] = [];
  let fence: string | undefined;
  let block: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const open = /^(```|~~~)/.exec(line);
    if (fence) {
      block.push(line);
      if (line.startsWith(fence)) {
        code.push(block.join("\n"));
        block = [];
        fence = undefined;
      }
      continue;
    }
    if (open) {
      fence = open[1]!;
      block = [line];
      continue;
    }
    prose.push(line);
  }
  if (fence) code.push(block.join("\n"));
  const proposal = prose.join("\n").trim();
  const codePart = code.join("\n\n").trim();
  if (!codePart) return { target: "proposal", code: "", proposal };
  if (!proposal || !PROPOSAL_HEADING.test(proposal)) {
    if (!proposal) return { target: "code", code: codePart, proposal: "" };
  }
  return { target: "mixed", code: codePart, proposal };
}
