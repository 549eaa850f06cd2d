import type { CrossfireSummary } from "@debatekit/schema";
import { quote, ruleError } from "../../errors.js";
import type { RuleError } from "../../types.js";
import { standingConcessions } from "./rules.js";
import type { Turn } from "./state.js";

/** The summary's length range in tokens (docs/architecture.md#formats). */
export const SUMMARY_MIN_TOKENS = 500;
export const SUMMARY_MAX_TOKENS = 800;

/**
 * Tokens of a summary, estimated as characters / 4 over every text field (core counts without a
 * tokenizer: it is pure and dependency-light; the estimate is within ~15% of cl100k for English prose).
 */
export function summaryTokens(summary: CrossfireSummary): number {
  const text = [
    summary.summary,
    summary.positions.proposer,
    summary.positions.challenger,
    ...summary.concessions,
    ...summary.open_disagreements,
  ].join("\n");
  return Math.ceil(text.length / 4);
}

/**
 * The summary read in `round` replaces rounds 1..round-2: every concession standing after them is
 * quoted verbatim, both positions and the open disagreements are there, and it is 500-800 tokens.
 */
export function checkSummary(summary: CrossfireSummary, covered: readonly Turn[]): RuleError[] {
  const errors: RuleError[] = [];
  const quoted = new Set(summary.concessions);
  for (const [id, c] of standingConcessions(covered)) {
    if (!quoted.has(c.text)) {
      errors.push(
        ruleError(
          "SUMMARY_CONCESSION_MISSING",
          "concessions",
          `expected ${id} quoted verbatim in \`concessions\`: ${quote(c.text)}`,
        ),
      );
    }
  }
  for (const side of ["proposer", "challenger"] as const) {
    if (summary.positions[side].trim() === "") {
      errors.push(
        ruleError(
          "SUMMARY_POSITION_MISSING",
          `positions.${side}`,
          `expected the ${side}'s position, found it empty`,
        ),
      );
    }
  }
  if (summary.open_disagreements.filter((d) => d.trim() !== "").length === 0) {
    errors.push(
      ruleError(
        "SUMMARY_DISAGREEMENTS_MISSING",
        "open_disagreements",
        "expected at least one open disagreement (what the sides still dispute), found none",
      ),
    );
  }
  const tokens = summaryTokens(summary);
  if (tokens < SUMMARY_MIN_TOKENS || tokens > SUMMARY_MAX_TOKENS) {
    errors.push(
      ruleError(
        tokens < SUMMARY_MIN_TOKENS ? "SUMMARY_TOO_SHORT" : "SUMMARY_TOO_LONG",
        "summary",
        `expected ${SUMMARY_MIN_TOKENS}-${SUMMARY_MAX_TOKENS} tokens (about ${SUMMARY_MIN_TOKENS * 4}-${SUMMARY_MAX_TOKENS * 4} characters over all fields), found about ${tokens}`,
      ),
    );
  }
  return errors;
}
