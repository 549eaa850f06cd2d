import { readdir, readFile } from "node:fs/promises";
import { journalOutcome } from "@debatekit/core";
import { journalFileName, readJournal, resolveInside, writeFileAtomic } from "@debatekit/files";
import type { CallUsage, JournalEntry, LedgerCall, UsageLedger, UsageTotals } from "@debatekit/schema";
import { validateUsageLedger } from "@debatekit/schema";
// The tokenizer alone, not the skill matcher: `debate status` reads the ledger through this module.
import { countTokens } from "@debatekit/skills/tokens";

/** Where a debate's ledger lives, relative to its folder (beside the journal it is derived from). */
export const LEDGER_FILE = ".debate/ledger.json";

function emptyTotals(): UsageTotals {
  return {
    calls: 0,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    estimated_calls: 0,
    unknown_cost_calls: 0,
    rejected_calls: 0,
  };
}

function add(totals: UsageTotals, call: LedgerCall): void {
  const usage = call.usage;
  totals.calls += 1;
  if (call.status === "rejected") totals.rejected_calls = (totals.rejected_calls ?? 0) + 1;
  totals.input_tokens += usage.input_tokens;
  totals.cached_input_tokens += usage.cached_input_tokens;
  totals.output_tokens += usage.output_tokens;
  totals.cost_usd = Math.round((totals.cost_usd + (usage.cost_usd ?? 0)) * 1e6) / 1e6;
  if (usage.tokens === "estimated") totals.estimated_calls += 1;
  if (usage.cost === "unknown") totals.unknown_cost_calls += 1;
}

/**
 * The usage of a journal entry: its `usage`, or for an entry journaled before usage was recorded,
 * what its result reported (else the answer's tokens, estimated; its prompt is not kept).
 */
export function entryUsage(entry: JournalEntry): CallUsage {
  if (entry.usage) return entry.usage;
  const reported = entry.result.usage;
  const output = reported?.outputTokens ?? (entry.result.text ? countTokens(entry.result.text) : 0);
  return {
    input_tokens: reported?.inputTokens ?? 0,
    cached_input_tokens: reported?.cachedInputTokens ?? 0,
    output_tokens: output,
    ...(reported?.costUsd !== undefined
      ? { cost: "reported" as const, cost_usd: reported.costUsd }
      : { cost: "unknown" as const }),
    tokens:
      reported?.inputTokens !== undefined && reported.outputTokens !== undefined ? "reported" : "estimated",
  };
}

/** A journal entry's row of the ledger. */
function callOf(entry: JournalEntry): LedgerCall {
  return {
    journal: journalFileName(entry),
    exchange: entry.exchange,
    phase: entry.phase,
    role: entry.role,
    attempt: entry.attempt,
    ...(entry.adapter ? { adapter: entry.adapter } : {}),
    ...((entry.result.model ?? entry.model) ? { model: entry.result.model ?? entry.model } : {}),
    status: journalOutcome(entry),
    finished_at: entry.finished_at,
    usage: entryUsage(entry),
  };
}

/** The ledger of its rows, in journal file order, with the totals per seat and in all. */
function ledgerOf(debateId: string, rows: LedgerCall[], options: { maxCostUsd?: number }): UsageLedger {
  const calls = rows.sort((a, b) => (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0));
  const seats: Record<string, UsageTotals> = {};
  const total = emptyTotals();
  for (const call of calls) {
    seats[call.role] ??= emptyTotals();
    add(seats[call.role]!, call);
    add(total, call);
  }
  return {
    version: 1,
    debate_id: debateId,
    ...(options.maxCostUsd !== undefined ? { max_cost_usd: options.maxCostUsd } : {}),
    calls,
    seats,
    total,
  };
}

/** The ledger of a journal: a pure function of it, so each journaled call counts exactly once. */
export function buildLedger(
  debateId: string,
  entries: readonly JournalEntry[],
  options: { maxCostUsd?: number } = {},
): UsageLedger {
  return ledgerOf(debateId, entries.map(callOf), options);
}

/**
 * `ledger` (the whole journal's, as a run found it) with the entries the run wrote since: each
 * replaces the row of its file or adds one. The same as buildLedger over the journal now, without
 * reading it.
 */
export function mergeLedger(
  ledger: UsageLedger,
  written: readonly JournalEntry[],
  options: { maxCostUsd?: number } = {},
): UsageLedger {
  const rows = new Map(ledger.calls.map((c) => [c.journal, c]));
  for (const entry of written) rows.set(journalFileName(entry), callOf(entry));
  return ledgerOf(ledger.debate_id, [...rows.values()], options);
}

/** The ledger's file text (stable: the same journal gives the same bytes). */
export function serializeLedger(ledger: UsageLedger): string {
  return `${JSON.stringify(ledger, null, 2)}\n`;
}

/**
 * Writes `.debate/ledger.json` atomically when its content changed (temp file, fsync, rename):
 * a crash leaves the old or the new file, and the next write heals a stale one from the journal.
 */
export async function writeLedger(dir: string, ledger: UsageLedger): Promise<boolean> {
  const checked = validateUsageLedger(ledger);
  if (!checked.ok)
    throw new Error(`ledger invalid at ${checked.errors[0]?.path}: ${checked.errors[0]?.message}`);
  const target = resolveInside(dir, LEDGER_FILE);
  const text = serializeLedger(ledger);
  const current = await readFile(target, "utf8").catch(() => undefined);
  if (current === text) return false;
  await writeFileAtomic(target, text);
  return true;
}

/**
 * A debate's usage, read from its journal (the source of truth), not from the ledger file: right
 * even when the file is missing or stale (a run killed between its journal and its ledger write).
 */
export async function readUsageLedger(
  dir: string,
  debateId: string,
  options: { maxCostUsd?: number } = {},
): Promise<UsageLedger> {
  return buildLedger(debateId, await readJournal(dir), options);
}

/**
 * `.debate/ledger.json` when it lists exactly the journal's files (one directory listing to check)
 * under the same budget; undefined when it does not (missing, stale, torn) or nothing is journaled.
 */
export async function currentLedger(
  dir: string,
  options: { maxCostUsd?: number } = {},
): Promise<{ ledger?: UsageLedger; journaled: number }> {
  const names = await readdir(resolveInside(dir, ".debate/journal")).then(
    (all) => all.filter((n) => /^x\d{4}-.*\.json$/.test(n)).sort(),
    () => [],
  );
  if (names.length === 0) return { journaled: 0 };
  const text = await readFile(resolveInside(dir, LEDGER_FILE), "utf8").catch(() => undefined);
  if (text !== undefined) {
    try {
      const checked = validateUsageLedger(JSON.parse(text));
      if (
        checked.ok &&
        // A ledger written before rejections were counted is rebuilt (its rows call them `ok`).
        checked.value.total.rejected_calls !== undefined &&
        checked.value.max_cost_usd === options.maxCostUsd &&
        checked.value.calls.map((c) => c.journal).join("\n") === names.join("\n")
      )
        return { ledger: checked.value, journaled: names.length };
    } catch {
      // Not JSON (a torn copy, a hand edit): the journal says it again.
    }
  }
  return { journaled: names.length };
}

/**
 * A debate's usage for display: `.debate/ledger.json` when it lists exactly the journal's files
 * (one directory listing to check), else rebuilt from the journal. Undefined when nothing is journaled.
 */
export async function loadUsageLedger(
  dir: string,
  debateId: string,
  options: { maxCostUsd?: number } = {},
): Promise<UsageLedger | undefined> {
  const current = await currentLedger(dir, options);
  if (current.journaled === 0) return undefined;
  return current.ledger ?? readUsageLedger(dir, debateId, options);
}
