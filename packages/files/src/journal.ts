import { readdir } from "node:fs/promises";
import type { LabelledSecret } from "@debatekit/core";
import { DebatekitError, formatRuleErrors, journalStepKey, quote } from "@debatekit/core";
import type { JournalEntry } from "@debatekit/schema";
import { validateJournalEntry } from "@debatekit/schema";
import { writeFileAtomic } from "./atomic.js";
import { schemaErrors } from "./documents.js";
import { parseJson } from "./json-text.js";
import { resolveInside } from "./paths.js";
import { findSecret, journalSecrets } from "./secrets.js";
import { MAX_JSON_BYTES, readTextInside } from "./text-file.js";

const JOURNAL_DIR = ".debate/journal";
// x<exchange>-<the format's step key, e.g. 1-arguments, 2-challenger>-<role>-a<attempt>.json
const NAME = /^x\d{4}-\d-[a-z]+-[a-z][a-z0-9_]*-a\d{3}\.json$/;

/** The step key of a phase (the format's `phases`), or JOURNAL_PHASE_UNKNOWN. */
function stepKey(phase: string): string {
  const key = journalStepKey(phase);
  if (key === undefined) {
    throw new DebatekitError(
      "JOURNAL_PHASE_UNKNOWN",
      `a journal entry's \`phase\` must be a phase in which a format asks seats, got ${quote(phase)}`,
      { field: "phase" },
    );
  }
  return key;
}

/**
 * The journal file name of an entry: sorts by exchange, then the format's step (its key in the
 * format's `phases`), then role, then attempt.
 */
export function journalFileName(
  entry: Pick<JournalEntry, "exchange" | "phase" | "role" | "attempt">,
): string {
  const exchange = String(entry.exchange).padStart(4, "0");
  const attempt = String(entry.attempt).padStart(3, "0");
  return `x${exchange}-${stepKey(entry.phase)}-${entry.role}-a${attempt}.json`;
}

/** Options of writeJournalEntry. */
export interface JournalWriteOptions {
  /** Whose secret-named variables' values must not appear in the entry (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** More values that must not appear (e.g. a key read from a file). */
  secrets?: readonly string[];
  /**
   * The labelled values to refuse, worked out once by journalSecrets(env, secrets) (a run writes many
   * entries with one environment); when given, `env` and `secrets` are not read.
   */
  refused?: readonly LabelledSecret[];
}

/**
 * Writes a journal entry atomically to .debate/journal/ (replacing the same step/role/attempt); returns its
 * path. Refuses with SECRET_IN_JOURNAL an entry holding a credential shape or a secret value.
 */
export async function writeJournalEntry(
  dir: string,
  entry: JournalEntry,
  options: JournalWriteOptions = {},
): Promise<string> {
  const checked = validateJournalEntry(entry);
  if (!checked.ok) {
    const errors = schemaErrors("(journal entry)", "JOURNAL_ENTRY_INVALID", checked.errors);
    throw new DebatekitError("JOURNAL_ENTRY_INVALID", formatRuleErrors(errors).join("\n"), {
      field: checked.errors[0]!.path,
    });
  }
  const secrets = options.refused ?? journalSecrets(options.env ?? process.env, options.secrets);
  const secret = findSecret(entry, secrets);
  if (secret) {
    // Never quote the match: the message itself must not carry the secret.
    throw new DebatekitError(
      "SECRET_IN_JOURNAL",
      `refusing to journal an entry whose \`${secret.path}\` contains ${secret.kind}; redact it first`,
      { field: secret.path },
    );
  }
  const file = `${JOURNAL_DIR}/${journalFileName(entry)}`;
  const target = resolveInside(dir, file);
  // writeFileAtomic creates .debate/journal/ when it is missing.
  await writeFileAtomic(target, `${JSON.stringify(entry, null, 2)}\n`);
  return target;
}

/** The file-name prefix of a step's entries (and role's, when given); a NUL, which no name holds, for an unknown step. */
export function journalStepPrefix(step: { exchange: number; phase: string; role?: string }): string {
  const phase = journalStepKey(step.phase);
  if (phase === undefined || !Number.isInteger(step.exchange) || step.exchange < 0) return "\0";
  const exchange = String(step.exchange).padStart(4, "0");
  return `x${exchange}-${phase}-${step.role === undefined ? "" : `${step.role}-`}`;
}

/** Reads the journal in file-name order, optionally only one step (and role); throws JOURNAL_ENTRY_INVALID on a bad file. */
export async function readJournal(
  dir: string,
  step?: { exchange: number; phase: string; role?: string },
): Promise<JournalEntry[]> {
  let names: string[];
  try {
    // File names encode the step: a step-filtered read opens only that step's files.
    const prefix = step ? journalStepPrefix(step) : "";
    names = (await readdir(resolveInside(dir, JOURNAL_DIR)))
      .filter((n) => NAME.test(n) && n.startsWith(prefix))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: JournalEntry[] = [];
  for (const name of names) {
    const file = `${JOURNAL_DIR}/${name}`;
    const read = await readTextInside(dir, file, MAX_JSON_BYTES);
    if (!read.ok) throw new DebatekitError(read.errors[0]!.code, read.errors[0]!.message, { file });
    if (read.value === undefined) continue;
    let data: unknown;
    try {
      data = parseJson(read.value);
    } catch (error) {
      throw new DebatekitError(
        "JOURNAL_ENTRY_INVALID",
        `${file}: expected a JSON journal entry (${(error as Error).message}), got ${quote(read.value)}`,
        { file, cause: error },
      );
    }
    const checked = validateJournalEntry(data);
    if (!checked.ok) {
      throw new DebatekitError(
        "JOURNAL_ENTRY_INVALID",
        formatRuleErrors(schemaErrors(file, "JOURNAL_ENTRY_INVALID", checked.errors)).join("\n"),
        { file, field: checked.errors[0]!.path },
      );
    }
    const entry = checked.value;
    if (step && (entry.exchange !== step.exchange || entry.phase !== step.phase)) continue;
    if (step?.role && entry.role !== step.role) continue;
    entries.push(entry);
  }
  return entries;
}

/**
 * Puts back together the prompts the entries keep (`debate log`): an entry with `prompt_base` holds
 * only the end of its prompt, the rest being the start of another entry's. Undefined for an entry
 * that kept no prompt. Never throws: a base that cannot be read (removed by hand, or not what the
 * entry says) leaves the entry's end behind a line saying so. Each base is read once.
 */
export async function readJournalPrompts(
  dir: string,
  entries: readonly JournalEntry[],
): Promise<Array<string | undefined>> {
  const bases = new Map<string, Promise<string | { problem: string }>>();
  const readBase = async (name: string): Promise<string | { problem: string }> => {
    if (!NAME.test(name)) return { problem: "it is not a journal file name" };
    const read = await readTextInside(dir, `${JOURNAL_DIR}/${name}`, MAX_JSON_BYTES);
    if (!read.ok) return { problem: read.errors[0]!.message };
    if (read.value === undefined) return { problem: "it is not there" };
    let data: unknown;
    try {
      data = parseJson(read.value);
    } catch {
      return { problem: "it is not JSON" };
    }
    const checked = validateJournalEntry(data);
    if (!checked.ok) return { problem: "it is not a valid journal entry" };
    const base = checked.value;
    if (base.prompt === undefined || base.prompt_base !== undefined)
      return { problem: "it does not keep a whole prompt" };
    return base.prompt;
  };
  return Promise.all(
    entries.map(async (entry) => {
      if (entry.prompt === undefined || entry.prompt_base === undefined) return entry.prompt;
      const { file, chars } = entry.prompt_base;
      if (!bases.has(file)) bases.set(file, readBase(file));
      const base = await bases.get(file)!;
      if (typeof base === "string" && base.length >= chars) return base.slice(0, chars) + entry.prompt;
      const why = typeof base === "string" ? `it keeps fewer than ${chars} characters` : base.problem;
      return `[the first ${chars} characters of this prompt are kept in ${JOURNAL_DIR}/${file}, which cannot be used: ${why}]\n${entry.prompt}`;
    }),
  );
}
