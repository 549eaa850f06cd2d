import { unlink } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ArgumentRecord, DebateState, Format, FormatRecord, RuleError } from "@debatekit/core";
import { DebatekitError, formatOfState, formatRuleErrors } from "@debatekit/core";
import { validateArgumentFrontmatter, validateScoresFile } from "@debatekit/schema";
import type { BeforeWrite } from "./atomic.js";
import { syncDirectory, writeFilesAtomic } from "./atomic.js";
import {
  parseDebateFile,
  schemaErrors,
  serializeArgumentFile,
  updateDebateFile,
  validateDebateData,
} from "./documents.js";
import { joinFrontmatter } from "./frontmatter.js";
import { stringifyJson } from "./json-text.js";
import { parseMotion } from "./motion.js";
import { ARGUMENT_ID, resolveInside } from "./paths.js";
import { PENDING_STEP_FILE, serializePendingStep } from "./pending-step.js";
import type { DebateFolder } from "./read.js";
import { readDebateMarkdown, recordKindOf } from "./read.js";
import { MAX_MARKDOWN_BYTES, readTextInside } from "./text-file.js";

/** Options of commitStep. */
export interface CommitOptions {
  /** Called before each write, in order (tests throw here to simulate a crash between writes). */
  beforeWrite?: BeforeWrite;
  /** Renders argument-graph.mmd from the next state (default: the format's derived files; formal's is core's renderArgumentGraph). */
  renderGraph?: (state: DebateState) => string;
  /**
   * false: leave the derived files (argument-graph.mmd) to `writeDerivedFiles` (the runner writes
   * them once when a run stops, not at every step). Default true.
   */
  derivedFiles?: boolean;
}

type ScoreRecord = DebateState["scores"][string];
/**
 * Each score record's entry in scores.json (`  "id": {...}`, 2 more spaces of indent), with the id it
 * was made for: records a step leaves alone are not serialized again.
 */
const recordTexts = new WeakMap<ScoreRecord, { id: string; text: string }>();

/**
 * scores.json text: 2-space JSON like dialectic writes it (stringifyJson's bytes), ending with a newline.
 * Built record by record, each record's text remembered: a step rewrites a few records of a long debate.
 */
export function serializeScores(scores: DebateState["scores"]): string {
  const ids = Object.keys(scores);
  if (ids.length === 0) return "{}\n";
  const parts: string[] = [];
  for (const id of ids) {
    const record = scores[id]!;
    let known = recordTexts.get(record);
    if (known?.id !== id) {
      known = { id, text: `  ${stringifyJson(id)}: ${stringifyJson(record).replace(/\n/g, "\n  ")}` };
      // Reading a character makes V8 flatten the concatenation once, here, instead of at every
      // join: a join copies a flat string faster than it walks a concatenation.
      known.text.charCodeAt(0);
      recordTexts.set(record, known);
    }
    parts.push(known.text);
  }
  return `{\n${parts.join(",\n")}\n}\n`;
}

function invalid(errors: RuleError[], file: string): DebatekitError {
  const first = errors[0];
  const field = first?.path.slice(first.path.indexOf(":") + 1);
  return new DebatekitError(
    "STATE_INVALID",
    `refusing to commit a state that would write an invalid ${file}:\n${formatRuleErrors(errors).join("\n")}`,
    { file, ...(field === undefined ? {} : { field }) },
  );
}

/** A record file's text: YAML frontmatter and the body, ending with a newline. */
export function serializeRecord(record: FormatRecord): string {
  return joinFrontmatter({ data: record.frontmatter, body: record.body, style: "yaml" });
}

/** The records a step adds; a record the format does not name, or a change to a committed one, is refused. */
function addedRecords(format: Format, folder: DebateFolder, next: DebateState): FormatRecord[] {
  const committed = new Map((folder.state.records ?? []).map((r) => [r.file, r]));
  const added: FormatRecord[] = [];
  for (const record of next.records ?? []) {
    const before = committed.get(record.file);
    if (before === record) continue;
    const kind = recordKindOf(format, record.file);
    if (!kind) {
      throw new DebatekitError(
        "RECORD_PATH_INVALID",
        `refusing to write ${JSON.stringify(record.file)}: the ${format.name} format names no such record file`,
        { file: record.file, field: "(file)" },
      );
    }
    if (before !== undefined) {
      if (serializeRecord(before) === serializeRecord(record)) continue;
      // Like arguments: a step only adds files, so an interrupted step is invisible.
      throw new DebatekitError(
        "RECORD_REWRITE",
        `${record.file}: a committed record cannot be changed by a step`,
        {
          file: record.file,
          field: "(file)",
        },
      );
    }
    const checked = kind.validate(record.frontmatter);
    if (!checked.ok)
      throw invalid(schemaErrors(record.file, "RECORD_FIELD_INVALID", checked.errors), record.file);
    added.push(record);
  }
  return added.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/**
 * The records of `after` that differ from `before` (by identity first: records a step keeps are the
 * same objects), and whether the two scores files differ at all (a removed record counts).
 */
/**
 * What a step changes in scores.json, from one pass over each side: the records it adds or changes
 * (`changed`, which the schema checks), what the pending-step record must restore on a crash
 * (`restore`: each changed or removed id's old record, null for an added one), and whether anything differs.
 */
function changedScores(
  before: DebateState["scores"],
  after: DebateState["scores"],
): { changed: DebateState["scores"]; restore: Record<string, ScoreRecord | null>; differ: boolean } {
  const changed: DebateState["scores"] = {};
  const restore: Record<string, ScoreRecord | null> = {};
  if (before === after) return { changed, restore, differ: false };
  let differ = false;
  let kept = 0;
  for (const id of Object.keys(after)) {
    const a = before[id];
    const b = after[id]!;
    if (a !== undefined) kept++;
    if (a === b || (a !== undefined && isDeepStrictEqual(a, b))) continue;
    changed[id] = b;
    restore[id] = a ?? null;
    differ = true;
  }
  if (kept !== Object.keys(before).length) {
    differ = true;
    // A record the step removes (no format does today) is restored too.
    for (const [id, old] of Object.entries(before)) if (!Object.hasOwn(after, id)) restore[id] = old;
  }
  return { changed, restore, differ };
}

function checkNextState(
  folder: DebateFolder,
  next: DebateState,
): { added: ArgumentRecord[]; scoresChanged: boolean; restore: Record<string, ScoreRecord | null> } {
  const debate = validateDebateData(next.frontmatter);
  if (!debate.ok)
    throw invalid(schemaErrors("debate.md", "DEBATE_FIELD_INVALID", debate.errors), "debate.md");
  const { changed, restore, differ: scoresChanged } = changedScores(folder.state.scores, next.scores);
  if (scoresChanged) {
    // The schema checks each record on its own (an id pattern, a record shape): the records a step
    // keeps were checked when they were read or committed, so only the ones it adds or changes are.
    const scores = validateScoresFile(changed);
    if (!scores.ok)
      throw invalid(schemaErrors("scores.json", "SCORES_FIELD_INVALID", scores.errors), "scores.json");
  }
  const committed = new Map(folder.state.arguments.map((a) => [a.frontmatter.id, a]));
  const added: ArgumentRecord[] = [];
  for (const argument of next.arguments) {
    const id = String(argument.frontmatter.id);
    const before = committed.get(id);
    // An unchanged committed argument was validated when it was read or committed: skip it, so a step
    // costs what it adds, not the size of the debate.
    if (before !== undefined && isSameArgument(before, argument)) continue;
    const file = ARGUMENT_ID.test(id) ? `arguments/${id}.md` : "arguments/";
    const checked = validateArgumentFrontmatter(argument.frontmatter);
    if (!checked.ok) throw invalid(schemaErrors(file, "ARGUMENT_FIELD_INVALID", checked.errors), file);
    if (before === undefined) added.push(argument);
    else {
      // Committed argument files are never rewritten: a step only adds files, so an interrupted step is invisible.
      throw new DebatekitError(
        "ARGUMENT_REWRITE",
        `${file}: a committed argument cannot be changed by a step`,
        {
          file,
          field: "(file)",
        },
      );
    }
  }
  return {
    added: added.sort((a, b) => (a.frontmatter.id < b.frontmatter.id ? -1 : 1)),
    scoresChanged,
    restore,
  };
}

/**
 * Whether a step left a committed argument as it was: the same object (the usual case), equal values, or,
 * only when those differ (e.g. an `undefined` key), the same file text.
 */
function isSameArgument(before: ArgumentRecord, after: ArgumentRecord): boolean {
  if (before === after) return true;
  if (before.body === after.body && isDeepStrictEqual(before.frontmatter, after.frontmatter)) return true;
  return (
    serializeArgumentFile({ ...before, style: "yaml" }) === serializeArgumentFile({ ...after, style: "yaml" })
  );
}

/**
 * What a file the step may replace holds: its text, `undefined` when absent, `null` when it is there
 * but not a readable regular file (a FIFO, a directory...): never read through a plain readFile,
 * which would hang on a FIFO. The write that follows replaces it (rename), or refuses a path that
 * leads out (resolveInside).
 */
async function readIfExists(dir: string, file: string): Promise<string | undefined | null> {
  const read = await readTextInside(dir, file, MAX_MARKDOWN_BYTES);
  return read.ok ? read.value : null;
}

/** The derived files of `next` that differ from the folder's, and every derived text. */
async function derivedChanges(
  folder: DebateFolder,
  next: DebateState,
  renderGraph?: (state: DebateState) => string,
): Promise<{ writes: Array<{ file: string; content: string }>; texts: Record<string, string> }> {
  const derived = renderGraph
    ? [{ file: "argument-graph.mmd", content: renderGraph(next) }]
    : (formatOfState(next).derivedFiles?.(next) ?? []);
  const writes: Array<{ file: string; content: string }> = [];
  const texts: Record<string, string> = {};
  for (const { file, content } of derived) {
    const text = content.endsWith("\n") ? content : `${content}\n`;
    texts[file] = text;
    // A text that differs from what the last commit left there is written without reading the file
    // (a long debate's graph is large, and it changes with nearly every step); the same text is
    // written only when the file on disk differs (someone edited or removed it).
    const last = folder.derivedTexts?.[file];
    if ((last !== undefined && last !== text) || (await readIfExists(folder.dir, file)) !== text)
      writes.push({ file, content: text });
  }
  return { writes, texts };
}

/**
 * Brings a committed folder's derived files (argument-graph.mmd) up to date, each written atomically;
 * returns the folder with what they now hold. For a run that commits with `derivedFiles: false`.
 */
export async function writeDerivedFiles(folder: DebateFolder): Promise<DebateFolder> {
  const { writes, texts } = await derivedChanges(folder, folder.state);
  if (writes.length > 0)
    await writeFilesAtomic(
      writes.map((w) => ({ target: resolveInside(folder.dir, w.file), content: w.content })),
    );
  return { ...folder, derivedTexts: texts };
}

/**
 * Writes one step: new argument files, scores.json, argument-graph.mmd, then debate.md LAST (the commit marker).
 * Refuses with DEBATE_PHASE_MISMATCH when debate.md on disk no longer holds the phase/exchange `folder` was read at.
 */
export async function commitStep(
  folder: DebateFolder,
  next: DebateState,
  options: CommitOptions = {},
): Promise<DebateFolder> {
  const { dir } = folder;
  const { added, scoresChanged, restore } = checkNextState(folder, next);
  const format = formatOfState(next);
  const records = addedRecords(format, folder, next);

  const onDisk = await readDebateText(folder);
  if (!onDisk.ok || !onDisk.value.doc.ok) {
    const errors = onDisk.ok ? (onDisk.value.doc as { errors: RuleError[] }).errors : onDisk.errors;
    throw new DebatekitError(
      "DEBATE_FILE_INVALID",
      `debate.md can no longer be read, refusing to commit:\n${formatRuleErrors(errors).join("\n")}`,
      {
        file: "debate.md",
      },
    );
  }
  const disk = onDisk.value.doc.value;
  const expected = folder.state.frontmatter;
  if (
    disk.frontmatter.current_exchange !== expected.current_exchange ||
    disk.frontmatter.current_phase !== expected.current_phase
  ) {
    throw new DebatekitError(
      "DEBATE_PHASE_MISMATCH",
      `debate.md: expected exchange ${expected.current_exchange} in phase ${expected.current_phase} (what this step was computed from), found exchange ${disk.frontmatter.current_exchange} in phase ${disk.frontmatter.current_phase}; another process or person advanced the debate, re-read the folder`,
      { file: "debate.md", field: "current_phase" },
    );
  }

  const writes: Array<{ file: string; content: string }> = [];
  if (scoresChanged) {
    writes.push({
      file: PENDING_STEP_FILE,
      content: serializePendingStep({
        version: 2,
        exchange: expected.current_exchange,
        phase: expected.current_phase,
        restore,
      }),
    });
  }
  for (const argument of added) {
    writes.push({
      file: `arguments/${argument.frontmatter.id}.md`,
      content: serializeArgumentFile({ ...argument, style: folder.styles.arguments }),
    });
  }
  for (const record of records) writes.push({ file: record.file, content: serializeRecord(record) });
  if (scoresChanged) writes.push({ file: "scores.json", content: serializeScores(next.scores) });
  const { writes: derivedWrites, texts: derivedTexts } =
    options.derivedFiles === false
      ? { writes: [], texts: folder.derivedTexts }
      : await derivedChanges(folder, next, options.renderGraph);
  writes.push(...derivedWrites);
  // Edit the text on disk rather than write the state out: only what the step changed (the marker, the
  // cumulative scores) moves. A person's comments, quoting and layout stay, and so does anything they
  // changed in debate.md while the seats were answering (rebased on `expected`, what the step started from).
  const debateText = updateDebateFile(
    onDisk.value.text,
    {
      frontmatter: next.frontmatter,
      body: next.body === folder.state.body ? disk.body : next.body,
      style: disk.style,
    },
    expected,
  );
  const written = parseDebateFile(debateText, "debate.md");
  if (!written.ok) throw invalid(written.errors, "debate.md");
  if (debateText !== onDisk.value.text) writes.push({ file: "debate.md", content: debateText });

  // Three groups, each one round of fsyncs (the commit order of docs/architecture.md#crash-safe-and-exactly-once kept): the pending record (old scores)
  // is durable before scores.json is replaced; every other file is durable before debate.md, the
  // commit marker, is replaced last.
  const targets = writes.map((w) => ({
    file: w.file,
    target: resolveInside(dir, w.file),
    content: w.content,
  }));
  // writeFilesAtomic creates a missing folder (arguments/, .debate/) when it first writes there.
  const groups = [
    targets.filter((t) => t.file === PENDING_STEP_FILE),
    targets.filter((t) => t.file !== PENDING_STEP_FILE && t.file !== "debate.md"),
    targets.filter((t) => t.file === "debate.md"),
  ];
  let index = 0;
  for (const group of groups) {
    await writeFilesAtomic(group, options.beforeWrite, index);
    index += group.length;
  }
  // Committed: the pending record is inert from now on (its marker no longer matches); tidy it away.
  const pending = resolveInside(dir, PENDING_STEP_FILE);
  if (
    writes.some((w) => w.file === "debate.md") &&
    (await readIfExists(dir, PENDING_STEP_FILE)) !== undefined
  ) {
    await unlink(pending);
    await syncDirectory(path.dirname(pending));
  }
  const byExchangeAndId = (a: ArgumentRecord, b: ArgumentRecord) =>
    a.frontmatter.exchange - b.frontmatter.exchange || (a.frontmatter.id < b.frontmatter.id ? -1 : 1);
  // Usually already in order (a step appends its arguments): checked in one pass before sorting.
  const args = next.arguments.every((a, i) => i === 0 || byExchangeAndId(next.arguments[i - 1]!, a) < 0)
    ? [...next.arguments]
    : [...next.arguments].sort(byExchangeAndId);
  // The state as debate.md now holds it (the step's changes over any edit made meanwhile).
  const motion = written.value.body === next.body ? undefined : parseMotion(written.value.body);
  const state: DebateState = {
    ...next,
    frontmatter: written.value.frontmatter,
    body: written.value.body,
    motion: motion?.ok ? motion.value : next.motion,
    arguments: args,
  };
  return {
    dir,
    state,
    styles: { ...folder.styles, debate: disk.style },
    debateText,
    ...(derivedTexts ? { derivedTexts } : {}),
  };
}

/**
 * debate.md as it is on disk, parsed; when it is still the text `folder` was read from or committed
 * as (compared byte for byte), that parse is reused instead of parsing it again.
 */
async function readDebateText(folder: DebateFolder): ReturnType<typeof readDebateMarkdown> {
  if (folder.debateText === undefined) return readDebateMarkdown(folder.dir);
  const read = await readTextInside(folder.dir, "debate.md", MAX_MARKDOWN_BYTES);
  if (read.ok && read.value === folder.debateText) {
    const { frontmatter, body } = folder.state;
    return {
      ok: true,
      value: {
        text: read.value,
        doc: { ok: true, value: { frontmatter, body, style: folder.styles.debate } },
      },
    };
  }
  return readDebateMarkdown(folder.dir);
}
