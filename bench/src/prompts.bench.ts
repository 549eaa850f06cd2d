import { readFile } from "node:fs/promises";
import { countTokens, TOKEN_ENCODING } from "@debatekit/skills";
import { report } from "./measure.js";
import { crossfirePrompts, formalPrompts, type SentPrompt } from "./prompt-debates.js";

/** What a debate's prompts cost: total and largest prompt, and per seat the common prefix of consecutive prompts. */
export interface PromptFigures {
  prompts: number;
  totalTokens: number;
  largestTokens: number;
  /** Per seat: tokens of consecutive prompts' common prefix over the later prompts' tokens (0-1), and the worst pair. */
  prefix: Record<string, { share: number; worst: number; pairs: number }>;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return a.slice(0, i);
}

/** Figures of one debate's prompts, counted in the skills budget's tokenizer. */
export function promptFigures(sent: readonly SentPrompt[]): PromptFigures {
  const tokens = sent.map((p) => countTokens(p.text));
  const prefix: PromptFigures["prefix"] = {};
  for (const role of new Set(sent.map((p) => p.role))) {
    const mine = sent.map((p, i) => ({ ...p, tokens: tokens[i]! })).filter((p) => p.role === role);
    let shared = 0;
    let total = 0;
    let worst = 1;
    for (let i = 1; i < mine.length; i++) {
      const common = countTokens(commonPrefix(mine[i - 1]!.text, mine[i]!.text));
      shared += common;
      total += mine[i]!.tokens;
      worst = Math.min(worst, common / mine[i]!.tokens);
    }
    if (mine.length > 1) prefix[role] = { share: shared / total, worst, pairs: mine.length - 1 };
  }
  return {
    prompts: sent.length,
    totalTokens: tokens.reduce((a, b) => a + b, 0),
    largestTokens: Math.max(...tokens),
    prefix,
  };
}

function print(label: string, f: PromptFigures, before: PromptFigures): void {
  const row = (name: string, was: number | undefined, now: number, unit: string) => {
    report(`${label}: ${name} (before)`, was ?? Number.NaN, unit);
    report(`${label}: ${name}`, now, unit);
  };
  row("prompts sent", before.prompts, f.prompts, "");
  row("total prompt tokens", before.totalTokens, f.totalTokens, "tokens");
  row("largest prompt", before.largestTokens, f.largestTokens, "tokens");
  for (const [role, p] of Object.entries(f.prefix)) {
    row(
      `${role}: common prefix of consecutive prompts`,
      (before.prefix[role]?.share ?? Number.NaN) * 100,
      p.share * 100,
      "%",
    );
    row(`${role}: worst pair`, (before.prefix[role]?.worst ?? Number.NaN) * 100, p.worst * 100, "%");
  }
}

/**
 * `pnpm bench prompts`: every prompt of a 60-exchange formal debate and a 5-round crossfire debate
 * built from the examples' recorded answers, counted in the tokenizer of the skills budget.
 */
export async function run(): Promise<void> {
  console.log(`(tokens: ${TOKEN_ENCODING}; no skills; the prefix share is the common prefix of each pair of`);
  console.log(" consecutive prompts of one seat, summed over the pairs, over the later prompts' tokens)");
  // "before": the same bench run on the layout before issue 15 (the file says which commit).
  const before = JSON.parse(
    await readFile(new URL("../src/prompts-before.json", import.meta.url), "utf8"),
  ) as { measured_at: string; formal: PromptFigures; crossfire: PromptFigures };
  console.log(`(before: ${before.measured_at})`);
  print("formal, 60 exchanges", promptFigures(await formalPrompts(60)), before.formal);
  print("crossfire, 5 rounds", promptFigures(await crossfirePrompts(5)), before.crossfire);
  // The trade-off debate.md's `context.window` sets: full text kept vs prefix shared.
  // What no layout can share: each turn's prompt must carry, in full, what the turn answers (a
  // debater: the opponent's latest arguments; the judge: the arguments it scores), and that text is
  // new to the prompt (it did not exist at the seat's previous call). So the prefix share of the
  // later prompts is at most 1 - (those tokens / their total): at a 0.6 M total, this bound.
  const answered = await formalPrompts(60, undefined, (state, role) => {
    const x = state.frontmatter.current_exchange;
    const other = role === "proposition" ? "opp" : "prop";
    return state.arguments
      .filter((a) =>
        role === "judge"
          ? a.frontmatter.exchange === x
          : a.frontmatter.exchange === x - 1 && a.frontmatter.side === other,
      )
      .map((a) => `## ${a.frontmatter.id}: ${a.frontmatter.title}\n\n${a.body.trim()}`)
      .join("\n\n");
  });
  const seen = new Set<string>();
  let unshareable = 0;
  for (const p of answered) {
    if (seen.has(p.role)) unshareable += countTokens(p.text);
    seen.add(p.role);
  }
  report("formal, 60 exchanges: full text each later prompt answers (new)", unshareable, "tokens");
  report("formal: highest prefix share possible at a 0.6 M total", (1 - unshareable / 600_000) * 100, "%");
  report("formal: least total for a 90% prefix share", unshareable / 0.1, "tokens");
  for (const window of [1, 2, 8, 16, 1000]) {
    const f = promptFigures(await formalPrompts(60, window));
    const share = Math.min(...Object.values(f.prefix).map((p) => p.share));
    report(`formal, 60 exchanges, window ${window}: total prompt tokens`, f.totalTokens, "tokens");
    report(`formal, 60 exchanges, window ${window}: lowest seat's prefix share`, share * 100, "%");
  }
}
