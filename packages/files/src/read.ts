import { readdir } from "node:fs/promises";
import type { ArgumentRecord, DebateState, Format, FormatRecord, Result, RuleError } from "@debatekit/core";
import { DebatekitError, formatOfState, quote } from "@debatekit/core";
import type { DebateFrontmatter, ScoresFile } from "@debatekit/schema";
import { validateArgumentFrontmatter, validateScoresFile } from "@debatekit/schema";
import type { ArgumentIndex } from "./argument-index.js";
import { argumentStatKey, indexEntry, readArgumentIndex } from "./argument-index.js";
import { parseArgumentFile, parseDebateFile, schemaErrors } from "./documents.js";
import type { FrontmatterStyle } from "./frontmatter.js";
import { splitFrontmatter } from "./frontmatter.js";
import { parseJson } from "./json-text.js";
import { parseMotion } from "./motion.js";
import { ARGUMENT_ID, resolveInside } from "./paths.js";
import { committedScores, PENDING_STEP_FILE, parsePendingStep } from "./pending-step.js";
import { MAX_JSON_BYTES, MAX_MARKDOWN_BYTES, readTextInside } from "./text-file.js";

/** A debate folder as read from disk: where it is, its committed state, and the frontmatter style of its files. */
export interface DebateFolder {
  dir: string;
  state: DebateState;
  styles: { debate: FrontmatterStyle; arguments: FrontmatterStyle };
  /** debate.md's text `state` was read from or committed as: a commit that finds it unchanged on disk needs no re-parse. */
  debateText?: string;
  /** The argument index of what was read (every committed argument with the file identity it was parsed from). */
  argumentIndex?: ArgumentIndex;
  /** Whether the index on disk held exactly `argumentIndex` (every argument came from it, nothing else was in it). */
  argumentIndexCurrent?: boolean;
  /** The derived files (argument-graph.mmd) as the commit that returned this folder wrote or found them. */
  derivedTexts?: Readonly<Record<string, string>>;
}

/** The exchange an argument id belongs to (`prop_003` -> 3). */
export function exchangeOfId(id: string): number {
  return Number.parseInt(id.slice(id.indexOf("_") + 1, id.indexOf("_") + 4), 10);
}

/** Whether an argument of `exchange` is part of the committed state that debate.md's marker describes. */
export function isCommittedExchange(frontmatter: DebateFrontmatter, exchange: number): boolean {
  return (
    exchange < frontmatter.current_exchange ||
    (exchange === frontmatter.current_exchange && frontmatter.current_phase === "awaiting_judgment")
  );
}

/** Reads and parses debate.md (the commit marker). */
export async function readDebateMarkdown(
  dir: string,
): Promise<Result<{ text: string; doc: ReturnType<typeof parseDebateFile> }>> {
  const read = await readTextInside(dir, "debate.md", MAX_MARKDOWN_BYTES);
  if (!read.ok) return read;
  if (read.value === undefined) {
    return {
      ok: false,
      errors: [
        {
          code: "DEBATE_FILE_MISSING",
          path: "debate.md:(file)",
          message: `debate.md: expected a debate.md in ${quote(dir)} (the folder is not a debate, or was not created yet)`,
        },
      ],
    };
  }
  return { ok: true, value: { text: read.value, doc: parseDebateFile(read.value, "debate.md") } };
}

async function listArgumentIds(dir: string): Promise<Result<string[]>> {
  const refuse = (code: string, message: string): Result<string[]> => ({
    ok: false,
    errors: [{ code, path: "arguments/:(file)", message: `arguments/: ${message}` }],
  });
  let folder: string;
  try {
    // The listing itself must not leave the folder through a symlinked arguments/.
    folder = resolveInside(dir, "arguments");
  } catch (error) {
    if (error instanceof DebatekitError) return refuse(error.code, error.message);
    throw error;
  }
  try {
    const names = await readdir(folder);
    // Only `<id>.md` files are arguments; editor backups, notes and temp files are ignored.
    return {
      ok: true,
      value: names
        .filter((name) => name.endsWith(".md") && ARGUMENT_ID.test(name.slice(0, -3)))
        .map((name) => name.slice(0, -3)),
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: true, value: [] };
    if (code === "ENOTDIR")
      return refuse("ARGUMENTS_NOT_FOLDER", "expected a folder of argument files, found a file");
    throw error;
  }
}

/** The checks of an argument's frontmatter against its file name (id, side, exchange). */
function idMismatches(file: string, id: string, fm: ArgumentRecord["frontmatter"]): RuleError[] {
  const errors: RuleError[] = [];
  const mismatch = (field: string, expected: string, got: unknown) =>
    errors.push({
      code: "ARGUMENT_ID_MISMATCH",
      path: `${file}:${field}`,
      message: `${file}: \`${field}\` must be ${expected} to match the file name, got ${quote(got)}`,
    });
  if (fm.id !== id) mismatch("id", quote(id), fm.id);
  if (fm.side !== id.slice(0, id.indexOf("_")))
    mismatch("side", quote(id.slice(0, id.indexOf("_"))), fm.side);
  if (fm.exchange !== exchangeOfId(id)) mismatch("exchange", String(exchangeOfId(id)), fm.exchange);
  return errors;
}

/**
 * An argument from the index when its file still has the identity the entry was parsed from (checked
 * like a parsed file: schema, id/side/exchange); undefined when it must be read and parsed.
 */
function fromIndex(
  index: ArgumentIndex,
  id: string,
  stat: string | undefined,
): { record: ArgumentRecord; style: FrontmatterStyle } | undefined {
  const entry = index.arguments[id];
  if (!entry || stat === undefined || entry.stat !== stat) return undefined;
  const checked = validateArgumentFrontmatter(entry.frontmatter);
  if (!checked.ok || idMismatches(`arguments/${id}.md`, id, checked.value).length > 0) return undefined;
  return { record: { frontmatter: checked.value, body: entry.body }, style: entry.style };
}

/** Reads and parses `arguments/<id>.md` (every check of readTextInside and the schema). */
export async function readArgument(
  dir: string,
  id: string,
): Promise<Result<{ record: ArgumentRecord; style: FrontmatterStyle }>> {
  const file = `arguments/${id}.md`;
  const read = await readTextInside(dir, file, MAX_MARKDOWN_BYTES);
  if (!read.ok) return read;
  if (read.value === undefined)
    return {
      ok: false,
      errors: [
        {
          code: "FILE_VANISHED",
          path: `${file}:(file)`,
          message: `${file}: the file disappeared while the folder was read`,
        },
      ],
    };
  const parsed = parseArgumentFile(read.value, file);
  if (!parsed.ok) return parsed;
  const fm = parsed.value.frontmatter;
  const errors = idMismatches(file, id, fm);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { record: { frontmatter: fm, body: parsed.value.body }, style: parsed.value.style },
  };
}

async function readScores(dir: string, frontmatter: DebateFrontmatter): Promise<Result<ScoresFile>> {
  // A judgment step that was interrupted before debate.md was written leaves its pending record: the
  // committed scores are the ones saved in it, not the half-written scores.json.
  const pending = await readTextInside(dir, PENDING_STEP_FILE, MAX_JSON_BYTES);
  if (!pending.ok) return pending;
  if (pending.value !== undefined) {
    const step = parsePendingStep(pending.value);
    if (!step.ok) return step;
    if (
      step.value.exchange === frontmatter.current_exchange &&
      step.value.phase === frontmatter.current_phase
    ) {
      if (step.value.version === 1) return { ok: true, value: step.value.scores };
      const onDisk = await readScoresFile(dir);
      if (!onDisk.ok) return onDisk;
      const restored = committedScores(step.value, onDisk.value);
      const checked = validateScoresFile(restored);
      if (!checked.ok)
        return { ok: false, errors: schemaErrors("scores.json", "SCORES_FIELD_INVALID", checked.errors) };
      return { ok: true, value: checked.value };
    }
  }
  return readScoresFile(dir);
}

/** scores.json as it is on disk ({} when absent), checked. */
async function readScoresFile(dir: string): Promise<Result<ScoresFile>> {
  const read = await readTextInside(dir, "scores.json", MAX_JSON_BYTES);
  if (!read.ok) return read;
  if (read.value === undefined) return { ok: true, value: {} };
  let data: unknown;
  try {
    data = parseJson(read.value);
  } catch (error) {
    return {
      ok: false,
      errors: [
        {
          code: "SCORES_INVALID_JSON",
          path: "scores.json:(root)",
          message: `scores.json: expected a JSON object of scores by argument id (${(error as Error).message}), got ${quote(read.value)}`,
        },
      ],
    };
  }
  const checked = validateScoresFile(data);
  if (!checked.ok)
    return { ok: false, errors: schemaErrors("scores.json", "SCORES_FIELD_INVALID", checked.errors) };
  return { ok: true, value: checked.value };
}

/** The folder (relative, `/`-separated) of a record kind: "" is the debate folder itself. */
function recordPath(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** The record kind a relative file belongs to, if any (files writes and reads only these). */
export function recordKindOf(format: Format, file: string): Format["records"][number] | undefined {
  const slash = file.lastIndexOf("/");
  const dir = slash < 0 ? "" : file.slice(0, slash);
  const name = file.slice(slash + 1);
  return format.records.find((kind) => kind.dir === dir && kind.name.test(name));
}

/** Reads the format's committed record files (debate.md's marker says which); errors name the file and field. */
async function readRecords(
  dir: string,
  format: Format,
  frontmatter: DebateFrontmatter,
): Promise<Result<FormatRecord[]>> {
  const errors: RuleError[] = [];
  const records: FormatRecord[] = [];
  for (const kind of format.records) {
    let names: string[];
    try {
      names = await readdir(kind.dir === "" ? dir : `${dir}/${kind.dir}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const files = names
      .filter((name) => kind.name.test(name))
      .map((name) => recordPath(kind.dir, name))
      .filter((file) => format.isRecordCommitted(frontmatter, file));
    for (const file of files) {
      const read = await readTextInside(dir, file, MAX_MARKDOWN_BYTES);
      if (!read.ok) {
        errors.push(...read.errors);
        continue;
      }
      if (read.value === undefined) continue;
      const split = splitFrontmatter(read.value, file);
      if (!split.ok) {
        errors.push(...split.errors);
        continue;
      }
      const checked = kind.validate(split.value.data);
      if (!checked.ok) {
        errors.push(...schemaErrors(file, "RECORD_FIELD_INVALID", checked.errors));
        continue;
      }
      records.push({ file, frontmatter: checked.value, body: split.value.body });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: records.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
}

/** Files read at once: enough to overlap I/O, far below the usual 1024 open-file limit of a process. */
const READ_CONCURRENCY = 32;

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function compareArguments(a: ArgumentRecord, b: ArgumentRecord): number {
  return (
    a.frontmatter.exchange - b.frontmatter.exchange ||
    (a.frontmatter.id < b.frontmatter.id ? -1 : a.frontmatter.id > b.frontmatter.id ? 1 : 0)
  );
}

/** Reads of a folder that changed while being read, before the last one is returned as it is. */
const CONSISTENT_READ_ATTEMPTS = 5;

/**
 * Reads a debate folder into its committed state, validating every file; never writes.
 *
 * A run may commit a step while the folder is read (`debate status` beside `debate run`): the reader
 * could then pair the old debate.md (the marker) with the new scores.json. debate.md is replaced
 * last by every commit, so the read is repeated until debate.md is the same after it as before it:
 * what was read then belongs to one commit.
 */
export async function readDebateFolder(dir: string): Promise<Result<DebateFolder>> {
  let debate = await readDebateMarkdown(dir);
  for (let attempt = 1; ; attempt++) {
    if (!debate.ok) return debate;
    const result = await readCommitted(dir, debate.value);
    const after = await readDebateMarkdown(dir);
    if (!after.ok || after.value.text === debate.value.text || attempt >= CONSISTENT_READ_ATTEMPTS)
      return result;
    debate = after;
  }
}

async function readCommitted(
  dir: string,
  debate: { text: string; doc: ReturnType<typeof parseDebateFile> },
): Promise<Result<DebateFolder>> {
  const doc = debate.doc;
  if (!doc.ok) return doc;
  const errors: RuleError[] = [];
  const motion = parseMotion(doc.value.body, "debate.md");
  if (!motion.ok) errors.push(...motion.errors);
  const frontmatter = doc.value.frontmatter;

  // debate.md is the commit marker: argument files of later exchanges are leftovers of an uncommitted step.
  const listed = await listArgumentIds(dir);
  if (!listed.ok) errors.push(...listed.errors);
  const ids = (listed.ok ? listed.value : []).filter((id) =>
    isCommittedExchange(frontmatter, exchangeOfId(id)),
  );
  const records: ArgumentRecord[] = [];
  const styles = new Set<FrontmatterStyle>();
  // Arguments whose file is exactly the one the index parsed are taken from it; the others are read
  // and parsed, their identity taken BEFORE the read (a change during the read makes the entry stale).
  const index = ids.length > 0 ? await readArgumentIndex(dir) : { version: 1 as const, arguments: {} };
  const argumentsDir = ids.length > 0 ? resolveInside(dir, "arguments") : "";
  const fresh: ArgumentIndex = { version: 1, arguments: {} };
  let misses = 0;
  const results = await mapLimited(ids, READ_CONCURRENCY, async (id) => {
    const stat = argumentStatKey(argumentsDir, id);
    const indexed = fromIndex(index, id, stat);
    if (indexed) {
      fresh.arguments[id] = index.arguments[id]!;
      return { ok: true as const, value: indexed };
    }
    misses++;
    const read = await readArgument(dir, id);
    const entry = read.ok && stat !== undefined && indexEntry(stat, read.value.record, read.value.style);
    if (entry) fresh.arguments[id] = entry;
    return read;
  });
  for (const result of results) {
    if (!result.ok) errors.push(...result.errors);
    else {
      records.push(result.value.record);
      styles.add(result.value.style);
    }
  }
  const scores = await readScores(dir, frontmatter);
  if (!scores.ok) errors.push(...scores.errors);
  else {
    const known = new Set(ids);
    for (const id of Object.keys(scores.value)) {
      if (!known.has(id)) {
        errors.push({
          code: "SCORES_UNKNOWN_ID",
          path: `scores.json:${id}`,
          message: `scores.json: \`${id}\` scores an argument that is not in arguments/ (expected one of the committed ids${known.size > 0 ? `: ${[...known].sort().slice(0, 10).join(", ")}${known.size > 10 ? ", ..." : ""}` : "; there are none yet"})`,
        });
      }
    }
  }
  // Formats with records of their own (crossfire's turns/, verdict.md; formal's judges/).
  const format = formatOfState({ frontmatter });
  const formatRecords = format.records.length > 0 ? await readRecords(dir, format, frontmatter) : undefined;
  if (formatRecords && !formatRecords.ok) errors.push(...formatRecords.errors);
  if (errors.length > 0 || !motion.ok || !scores.ok) return { ok: false, errors };
  records.sort(compareArguments);
  const state: DebateState = {
    frontmatter,
    body: doc.value.body,
    motion: motion.value,
    arguments: records,
    scores: scores.value,
    ...(formatRecords?.ok ? { records: formatRecords.value } : {}),
  };
  // What is committed is re-checked with the rules an answer had to pass (core's, not a copy):
  // a hand edit cannot smuggle in a link, a score or an exchange that a model answer could not.
  const committed = format.checkCommitted(state);
  if (committed.length > 0) return { ok: false, errors: committed };
  // New argument files follow the existing ones; a folder without any follows debate.md.
  const argumentStyle = styles.size > 0 ? [...styles][0]! : doc.value.style;
  return {
    ok: true,
    value: {
      dir,
      state,
      styles: { debate: doc.value.style, arguments: argumentStyle },
      debateText: debate.text,
      argumentIndex: fresh,
      argumentIndexCurrent: misses === 0 && Object.keys(index.arguments).length === ids.length,
    },
  };
}
