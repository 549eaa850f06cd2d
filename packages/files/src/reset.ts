import { copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { DebatekitError, formatOfState, formatRuleErrors } from "@debatekit/core";
import { writeFilesAtomic } from "./atomic.js";
import { serializeScores } from "./commit.js";
import { updateDebateFile } from "./documents.js";
import { acquireLock } from "./lock.js";
import { ARGUMENT_ID, resolveInside } from "./paths.js";
import { PENDING_STEP_FILE, serializePendingStep } from "./pending-step.js";

/** The usage ledger the runner keeps (rebuilt from the journal when it is missing). */
const LEDGER_FILE = ".debate/ledger.json";

import { exchangeOfId, readDebateFolder, recordKindOf } from "./read.js";

/** Options of resetDebateFolder. */
export interface ResetOptions {
  /** The exchange (or the format's unit) to start again from; default: the debate's start. */
  to?: number;
  /** Keep what the reset removes under `.debate/reset/<stamp>/` (default true). */
  keep?: boolean;
  /** The time of the reset (names the kept folder). */
  now?: Date;
  /** What the lock shows while the reset runs. */
  command?: string;
}

/** What resetDebateFolder did. */
export interface ResetResult {
  /** The exchange the debate now starts from. */
  exchange: number;
  /** What the format counts progress in (its `unit.one`: `exchange`, `round`). */
  unit: string;
  /** Files taken out of the debate (relative, `/`-separated). */
  removed: string[];
  /** Where they were kept (relative to the folder), when `keep`. */
  keptIn?: string;
}

/** Relative paths of the files below `dir/sub` (recursively), `/`-separated; none when it is missing. */
async function filesBelow(dir: string, sub: string): Promise<string[]> {
  const entries = await readdir(resolveInside(dir, sub), { withFileTypes: true, recursive: true }).catch(
    () => [],
  );
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

/** The exchange a prompt, inbox or journal file belongs to (`e002-…`, `x0002-…`), if it has one. */
function exchangeOfStepFile(file: string): number | undefined {
  const match = /^(?:prompts|inbox)\/e(\d{3})-|^\.debate\/journal\/x(\d{4})-/.exec(file);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/** The word's indefinite article (`an exchange`, `a round`). */
function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/**
 * Takes a debate back to its start, or to the start of exchange `to`, keeping its motion, seats and
 * settings (every key a person wrote in debate.md, with its comments and layout). Arguments, scores,
 * records, prompts, inbox answers and journal entries of the exchanges undone are taken out (kept
 * under `.debate/reset/<stamp>/` unless `keep: false`). Holds the debate's lock meanwhile; refuses a
 * format whose `reset` is not supported (with its reason) and an exchange the debate has not reached.
 */
export async function resetDebateFolder(dir: string, options: ResetOptions = {}): Promise<ResetResult> {
  const lock = await acquireLock(dir, { command: options.command ?? "debate reset" });
  try {
    return await resetLocked(dir, options);
  } finally {
    await lock.release();
  }
}

async function resetLocked(dir: string, options: ResetOptions): Promise<ResetResult> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new DebatekitError(read.errors[0]!.code, formatRuleErrors(read.errors).join("\n"));
  const folder = read.value;
  const fm = folder.state.frontmatter;
  const format = formatOfState(folder.state);
  const reset = format.reset;
  if (!reset.supported)
    throw new DebatekitError(
      "RESET_UNSUPPORTED",
      `a ${format.name} debate cannot be reset (${reset.reason}); start a new one`,
    );
  const unit = format.unit.one;
  const to = options.to ?? reset.start;
  if (!Number.isInteger(to) || to < reset.start || to > fm.current_exchange)
    throw new DebatekitError(
      "RESET_EXCHANGE_OUT_OF_RANGE",
      `--to ${to}: expected ${article(unit)} ${unit} from ${reset.start} to ${fm.current_exchange} (the debate is at ${unit} ${fm.current_exchange})`,
      { field: "to" },
    );

  // The format plans the new start (marker, what stays, the keys its engine wrote); files checks and writes it.
  const invalid = (why: string) =>
    new DebatekitError("RESET_INVALID", `cannot reset to ${unit} ${to}: ${why}`);
  const planned = reset.plan(folder.state, to);
  if (!planned.ok) throw invalid(formatRuleErrors(planned.errors).join("; "));
  const { state, writeScores } = planned.value;
  const { frontmatter, scores } = state;
  const checked = format.validateFrontmatter(frontmatter);
  if (!checked.ok) throw invalid(checked.errors.map((e) => e.message).join("; "));
  const errors = format.checkCommitted(state);
  if (errors.length > 0) throw invalid(formatRuleErrors(errors).join("; "));

  // What goes: every file of the exchanges undone (whatever the marker said), and what only a run uses.
  const candidates = [
    ...(await filesBelow(dir, "arguments")),
    ...(await filesBelow(dir, "prompts")),
    ...(await filesBelow(dir, "inbox")),
    ...(await filesBelow(dir, ".debate/journal")),
  ];
  for (const sub of new Set(format.records.map((k) => k.dir)))
    candidates.push(...(sub === "" ? await readdir(dir) : await filesBelow(dir, sub)));
  const removed = new Set<string>();
  for (const file of candidates) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (file.startsWith("arguments/")) {
      const id = name.slice(0, -3);
      if (name.endsWith(".md") && ARGUMENT_ID.test(id) && exchangeOfId(id) >= to) removed.add(file);
      continue;
    }
    const step = exchangeOfStepFile(file);
    if (step !== undefined) {
      if (step >= to) removed.add(file);
    } else if (recordKindOf(format, file) && !format.isRecordCommitted(frontmatter, file)) removed.add(file);
  }
  const runFiles = await filesBelow(dir, ".debate");
  for (const file of [PENDING_STEP_FILE, LEDGER_FILE]) if (runFiles.includes(file)) removed.add(file);
  const gone = [...removed].sort();

  // Kept first (debate.md and scores.json as they were, too), so a crash midway loses nothing.
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
  const keptIn = `.debate/reset/${stamp}`;
  const hasScores = (await readdir(dir)).includes("scores.json");
  if (options.keep !== false) {
    for (const file of [...gone, "debate.md", ...(hasScores ? ["scores.json"] : [])]) {
      const target = resolveInside(dir, `${keptIn}/${file}`);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(resolveInside(dir, file), target);
    }
  }
  const text = updateDebateFile(
    await readFile(resolveInside(dir, "debate.md"), "utf8"),
    { frontmatter, body: folder.state.body, style: folder.styles.debate },
    fm,
  );
  // The scores of the new start are pending until the marker moves (readers take them from the
  // pending record while debate.md holds the new marker and scores.json the old scores).
  const pending = resolveInside(dir, PENDING_STEP_FILE);
  await writeFilesAtomic([
    {
      target: pending,
      content: serializePendingStep({ version: 1, exchange: to, phase: frontmatter.current_phase, scores }),
    },
  ]);
  await writeFilesAtomic([{ target: resolveInside(dir, "debate.md"), content: text }]);
  for (const file of gone)
    if (file !== PENDING_STEP_FILE) await rm(resolveInside(dir, file), { force: true });
  await writeFilesAtomic(
    [
      ...(hasScores || writeScores ? [{ file: "scores.json", content: serializeScores(scores) }] : []),
      ...(format.derivedFiles?.(state) ?? []).map(({ file, content }) => ({
        file,
        content: content.endsWith("\n") ? content : `${content}\n`,
      })),
    ].map((w) => ({ target: resolveInside(dir, w.file), content: w.content })),
  );
  await rm(pending, { force: true });
  return { exchange: to, unit, removed: gone, ...(options.keep !== false ? { keptIn } : {}) };
}
