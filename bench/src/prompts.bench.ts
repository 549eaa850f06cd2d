import { readFile } from "node:fs/promises";
import type { DebateState } from "@debatekit/core";
import { countTokens, TOKEN_ENCODING } from "@debatekit/skills";
import { percentile, report } from "./measure.js";
import { crossfirePrompts, formalPrompts, reviewPrompts, type SentPrompt } from "./prompt-debates.js";

/** What a debate's prompts cost: total and largest prompt, and per seat the common prefix of consecutive prompts. */
export interface PromptFigures {
  prompts: number;
  totalTokens: number;
  largestTokens: number;
  /** Per seat: tokens of consecutive prompts' common prefix over the later prompts' tokens (0-1), and the worst pair. */
  prefix: Record<string, { share: number; worst: number; pairs: number; median?: number }>;
  /** Tokens of each prompt that a provider's prefix cache can serve: its common prefix with the seat's previous prompt (summed). */
  cachedTokens: number;
  /** Per seat: the share of the earlier prompt's tokens that the later one reuses as its prefix (a second measure, not the target's). */
  reuse?: Record<string, number>;
}

/** What a user pays for the input, in uncached-token equivalents: uncached + `rate` x cached. */
export function effectiveInput(f: Pick<PromptFigures, "totalTokens" | "cachedTokens">, rate: number): number {
  return f.totalTokens - f.cachedTokens + rate * f.cachedTokens;
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
  const reuse: Record<string, number> = {};
  let cachedTokens = 0;
  for (const role of new Set(sent.map((p) => p.role))) {
    const mine = sent.map((p, i) => ({ ...p, tokens: tokens[i]! })).filter((p) => p.role === role);
    let shared = 0;
    let total = 0;
    let earlier = 0;
    let worst = 1;
    const shares: number[] = [];
    for (let i = 1; i < mine.length; i++) {
      const common = countTokens(commonPrefix(mine[i - 1]!.text, mine[i]!.text));
      shared += common;
      total += mine[i]!.tokens;
      earlier += mine[i - 1]!.tokens;
      worst = Math.min(worst, common / mine[i]!.tokens);
      shares.push(common / mine[i]!.tokens);
    }
    cachedTokens += shared;
    if (mine.length > 1) {
      prefix[role] = { share: shared / total, worst, pairs: mine.length - 1, median: percentile(shares, 50) };
      reuse[role] = shared / earlier;
    }
  }
  return {
    prompts: sent.length,
    totalTokens: tokens.reduce((a, b) => a + b, 0),
    largestTokens: Math.max(...tokens),
    prefix,
    cachedTokens,
    reuse,
  };
}

function print(label: string, f: PromptFigures, before?: PromptFigures): void {
  const row = (name: string, was: number | undefined, now: number, unit: string) => {
    if (before) report(`${label}: ${name} (before)`, was ?? Number.NaN, unit);
    report(`${label}: ${name}`, now, unit);
  };
  row("prompts sent", before?.prompts, f.prompts, "");
  row("total prompt tokens", before?.totalTokens, f.totalTokens, "tokens");
  row("largest prompt", before?.largestTokens, f.largestTokens, "tokens");
  for (const { rate } of CACHE_RATES)
    report(`${label}: cache-weighted tokens at ${rate}`, effectiveInput(f, rate), "tokens");
  for (const [role, p] of Object.entries(f.prefix)) {
    report(`${label}: ${role}: median common prefix`, (p.median ?? Number.NaN) * 100, "%");
    row(
      `${role}: common prefix of consecutive prompts`,
      (before?.prefix[role]?.share ?? Number.NaN) * 100,
      p.share * 100,
      "%",
    );
    row(`${role}: worst pair`, (before?.prefix[role]?.worst ?? Number.NaN) * 100, p.worst * 100, "%");
  }
}

/** The section and exchange headings (`# ` and `### ` lines) of a prompt from the one in effect at `at` on. */
function headingsFrom(text: string, at: number): string[] {
  const start = text.lastIndexOf("\n#", at);
  return [...text.slice(Math.max(start, 0)).matchAll(/^(?:#|###) (.+)$/gm)].map((m) => m[1]!);
}

/**
 * Why a seat's median prefix is below `target`: at its median pair, where the later prompt parts
 * from the earlier one (the headings from there on) and how many of its tokens are new.
 */
function whyBelow(
  sent: readonly SentPrompt[],
  role: string,
  target: number,
): { line: string; missing?: number } | undefined {
  const mine = sent.filter((p) => p.role === role);
  const pairs = mine.slice(1).map((p, i) => {
    const common = commonPrefix(mine[i]!.text, p.text).length;
    const tokens = countTokens(p.text);
    return { p, common, tokens, share: countTokens(p.text.slice(0, common)) / tokens };
  });
  if (pairs.length === 0) return undefined;
  const median = [...pairs].sort((a, b) => a.share - b.share)[Math.ceil(pairs.length / 2) - 1]!;
  if (median.share >= target) return undefined;
  const fresh = median.tokens - countTokens(median.p.text.slice(0, median.common));
  const why = `${role} below ${target * 100}% (median pair, exchange ${median.p.exchange}): ${fresh} of ${median.tokens} tokens are new, from "${headingsFrom(median.p.text, median.common).join('" through "')}"`;
  const scored = scoredBlock(median.p);
  if (scored === undefined) return { line: why };
  // What no layout avoids: the arguments to score are new to the judge's prompt that scores them.
  const floor = countTokens(scored);
  const least = Math.ceil(floor / (1 - target));
  return {
    line: `${why}; ${floor} of them are the arguments it scores, new to every judgment whatever the layout, so ${target * 100}% needs a prompt of at least ${least} tokens`,
    missing: least - median.tokens,
  };
}

/** The block of a judge's prompt with the arguments it scores (the history's last exchange, in full). */
function scoredBlock(p: SentPrompt): string | undefined {
  const start = p.text.indexOf(`\n### Exchange ${p.exchange}, in full`);
  if (p.role !== "judge" || start < 0) return undefined;
  const end = p.text.indexOf("\n# ", start);
  return p.text.slice(start, end < 0 ? undefined : end);
}

type Reference = { measured_at: string; formal: PromptFigures; crossfire: PromptFigures };

/** The cache-read prices the "effective input" figures use (fraction of the uncached input price). */
const CACHE_RATES = [
  { rate: 0.1, who: "Anthropic's cache read" },
  { rate: 0.25, who: "a quarter-price cached input" },
  { rate: 0.5, who: "OpenAI's cached input" },
];

/** The formal debate's targets: every seat's median common prefix, cache-weighted tokens at 0.1, total. */
const TARGETS = { medianPrefix: 0.92, weighted: 250_000, total: 1_560_000 };

/** The id, title and claim of an argument, as a compact entry carries them. */
const compact = (a: DebateState["arguments"][number]) =>
  `- ${a.frontmatter.id}: ${a.frontmatter.title}. ${a.frontmatter.claim}`;

/** The full text of some arguments. */
const full = (list: DebateState["arguments"]) =>
  list.map((a) => `## ${a.frontmatter.id}: ${a.frontmatter.title}\n\n${a.body.trim()}`).join("\n\n");

/** The scores and rescores the judgment of exchange `e` gave. */
function judgmentOf(state: DebateState, e: number): string {
  const lines: string[] = [];
  for (const a of state.arguments) {
    for (const h of state.scores[a.frontmatter.id]?.history ?? []) {
      const initial = h.triggered_by === undefined && a.frontmatter.exchange === e;
      if (initial || h.triggered_by === `exchange_${e}`) lines.push(`${a.frontmatter.id} ${h.score}`);
    }
  }
  return lines.join(", ");
}

/**
 * Per later prompt of each seat, what is necessarily new to it whatever the layout: a debater at
 * exchange x gets the opponent's arguments of x-1 in full (what it answers), its own argument of
 * x-1 (at least id, title, claim) and the judgment of x-1; the judge gets the arguments of x in
 * full and its own judgment of x-1 (the scores it rescores from). `floor` adds to it every other
 * earlier argument's id, title and claim (the compact entry), instructions left out: no
 * layout that keeps those can send less.
 */
async function bounds(): Promise<{ newTokens: number; floorTokens: number }> {
  const parts = await formalPrompts(60, undefined, (state, role) => {
    const x = state.frontmatter.current_exchange;
    const args = state.arguments;
    if (role === "judge") {
      const answered = args.filter((a) => a.frontmatter.exchange === x);
      const rest = args.filter((a) => a.frontmatter.exchange < x);
      return JSON.stringify({
        fresh: `${full(answered)}\n${judgmentOf(state, x - 1)}`,
        rest: rest.map(compact).join("\n"),
      });
    }
    const mine = role === "proposition" ? "prop" : "opp";
    const last = args.filter((a) => a.frontmatter.exchange === x - 1);
    const theirs = last.filter((a) => a.frontmatter.side !== mine);
    const own = last.filter((a) => a.frontmatter.side === mine);
    const rest = args.filter((a) => a.frontmatter.exchange < x - 1);
    return JSON.stringify({
      fresh: `${full(theirs)}\n${own.map(compact).join("\n")}\n${judgmentOf(state, x - 1)}`,
      rest: rest.map(compact).join("\n"),
    });
  });
  const seen = new Set<string>();
  let newTokens = 0;
  let floorTokens = 0;
  for (const p of parts) {
    const { fresh, rest } = JSON.parse(p.text) as { fresh: string; rest: string };
    const f = countTokens(fresh);
    floorTokens += f + countTokens(rest);
    if (seen.has(p.role)) newTokens += f;
    seen.add(p.role);
  }
  return { newTokens, floorTokens };
}

/**
 * `pnpm bench prompts`: every prompt of a 60-exchange formal debate, a 5-round crossfire debate and
 * a 3-round review built from the examples' recorded answers, counted in the tokenizer of the skills budget.
 */
export async function run(): Promise<void> {
  console.log(`(tokens: ${TOKEN_ENCODING}; no skills; the prefix share is the common prefix of each pair of`);
  console.log(" consecutive prompts of one seat, summed over the pairs, over the later prompts' tokens;");
  console.log(" effective input = uncached tokens + rate x cached tokens, cached = that common prefix)");
  // "before": the same bench run on the layout before prompts became append-only (the file says which commit);
  // "main": the layout before block compaction and the judgment log, per window.
  const read = async (name: string) =>
    JSON.parse(await readFile(new URL(`../src/${name}`, import.meta.url), "utf8")) as unknown;
  const before = (await read("prompts-before.json")) as Reference;
  const main = (await read("prompts-main.json")) as {
    measured_at: string;
    formal: Record<string, PromptFigures>;
    crossfire: PromptFigures;
  };
  console.log(`(before: ${before.measured_at})`);
  console.log(`(main: ${main.measured_at})`);
  const formalSent = await formalPrompts(60);
  const formal = promptFigures(formalSent);
  print("formal, 60 exchanges", formal, before.formal);
  print("crossfire, 5 rounds", promptFigures(await crossfirePrompts(5)), before.crossfire);
  // No "before" for the review: it entered the bench after the layout work.
  print("review, 3 rounds", promptFigures(await reviewPrompts()));
  console.log(
    `(formal targets: every seat's median prefix >= ${TARGETS.medianPrefix * 100}%, cache-weighted at 0.1 <= ${TARGETS.weighted}, total <= ${TARGETS.total})`,
  );
  const weighted = effectiveInput(formal, 0.1);
  console.log(
    `formal: cache-weighted at 0.1 ${Math.round(weighted)} ${weighted <= TARGETS.weighted ? "meets" : "misses"} the target; total ${formal.totalTokens} ${formal.totalTokens <= TARGETS.total ? "meets" : "misses"} it`,
  );
  for (const role of Object.keys(formal.prefix)) {
    const why = whyBelow(formalSent, role, TARGETS.medianPrefix);
    console.log(why ? `formal: ${why.line}` : `formal: ${role} meets the median prefix target`);
    if (why?.missing === undefined) continue;
    // The other way to the share: that many more tokens of fixed text in every prompt of the seat,
    // paid in full once and at 0.1 after.
    const prompts = formalSent.filter((p) => p.role === role).length;
    const padded = weighted + why.missing * (1 + 0.1 * (prompts - 1));
    console.log(
      `formal: ${role} at ${TARGETS.medianPrefix * 100}% by ${why.missing} more tokens of fixed text in each of its ${prompts} prompts: cache-weighted at 0.1 ${Math.round(padded)} (target ${TARGETS.weighted})`,
    );
  }
  for (const [role, share] of Object.entries(formal.reuse ?? {}))
    report(`formal: ${role}: share of the earlier prompt reused (2nd measure)`, share * 100, "%");

  // The two targets (>= 90% prefix share, <= 0.6 M tokens) against what no layout can avoid.
  const { newTokens, floorTokens } = await bounds();
  report("formal: tokens new to each later prompt (any layout)", newTokens, "tokens");
  report("formal: highest prefix share possible at a 0.6 M total", (1 - newTokens / 600_000) * 100, "%");
  report("formal: least total for a 90% prefix share", newTokens / 0.1, "tokens");
  report("formal: least total keeping id+title+claim of all (no instr.)", floorTokens, "tokens");

  // The frontier debate.md's `context.window` sets: full text kept vs prefix shared vs what users pay.
  const meets: Array<{ window: number; weighted: number }> = [];
  for (const window of [1, 2, 3, 4, 8]) {
    const f = promptFigures(await formalPrompts(60, window));
    if ((f.prefix.judge?.median ?? 0) >= TARGETS.medianPrefix)
      meets.push({ window, weighted: effectiveInput(f, 0.1) });
    const was = main.formal[String(window)];
    const row = (name: string, old: number | undefined, now: number, unit: string) => {
      report(`formal, window ${window}: ${name} (main)`, old ?? Number.NaN, unit);
      report(`formal, window ${window}: ${name}`, now, unit);
    };
    row("total prompt tokens", was?.totalTokens, f.totalTokens, "tokens");
    row("largest prompt", was?.largestTokens, f.largestTokens, "tokens");
    for (const [role, p] of Object.entries(f.prefix)) {
      row(`${role}: prefix share`, (was?.prefix[role]?.share ?? Number.NaN) * 100, p.share * 100, "%");
      report(`formal, window ${window}: ${role}: median prefix`, (p.median ?? Number.NaN) * 100, "%");
    }
    for (const { rate, who } of CACHE_RATES)
      row(
        `effective input at ${rate} (${who})`,
        was ? effectiveInput(was, rate) : undefined,
        effectiveInput(f, rate),
        "tokens",
      );
  }
  // The judge's median prefix against the cost target, window by window: where they conflict.
  const first = meets[0];
  console.log(
    first
      ? `formal: the judge's median prefix reaches ${TARGETS.medianPrefix * 100}% first at window ${first.window}, cache-weighted at 0.1 ${Math.round(first.weighted)} (target ${TARGETS.weighted})`
      : `formal: no window measured gives the judge a median prefix of ${TARGETS.medianPrefix * 100}%`,
  );
}
