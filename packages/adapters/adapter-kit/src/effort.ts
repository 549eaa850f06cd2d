import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clipText } from "@debatekit/core";
import type { AdapterEffort, Effort, EffortLevel, EffortMap, SeatConfig } from "@debatekit/schema";
import { validateEffortMap } from "@debatekit/schema";

/** The effort map shipped with this package (`effort.json` at the package root). */
export const shippedEffortFile: string = fileURLToPath(new URL("../effort.json", import.meta.url));

/** Environment variable naming a user-wide effort override file. */
export const effortFileEnv = "DEBATEKIT_EFFORT_FILE";

/** File name of a per-debate effort override, at the top of the debate folder. */
export const debateEffortFileName = "effort.json";

/** The effort used when neither the seat nor the map names one. */
export const fallbackEffort: Effort = "medium";

/** A problem with an effort file; names the file and the field. Stable `code`s. */
export class EffortMapError extends Error {
  override readonly name = "EffortMapError";
  readonly exitCode = 2;
  constructor(
    readonly code: "EFFORT_FILE_UNREADABLE" | "EFFORT_FILE_NOT_JSON" | "EFFORT_FILE_INVALID",
    message: string,
    readonly file: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What a seat's effort becomes for one adapter: the model to use, extra CLI args, extra env. */
export interface ResolvedEffort {
  effort: Effort;
  model?: string;
  args: string[];
  env: Record<string, string>;
}

/** Content quoted in a message: redacted, then cut (core's clipText, the one way to cut text). */
function cut(text: string, max = 200): string {
  return clipText(text, max, { marker: "..." });
}

/** Largest effort file read: the shipped one is a few KiB. */
const MAX_EFFORT_FILE_BYTES = 1024 * 1024;

/**
 * The text of a regular file of at most MAX_EFFORT_FILE_BYTES, opened without blocking and checked on
 * the handle: a FIFO named effort.json in a debate folder would otherwise hang every seat forever.
 */
function readRegularFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_EFFORT_FILE_BYTES) {
      throw new EffortMapError(
        "EFFORT_FILE_UNREADABLE",
        `${file}: expected a regular file of at most ${MAX_EFFORT_FILE_BYTES} bytes, found ${stats.isFile() ? `${stats.size} bytes` : stats.isDirectory() ? "a directory" : stats.isFIFO() ? "a named pipe (FIFO)" : "a device or socket"}`,
        file,
      );
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Reads and schema-validates one effort file; throws EffortMapError naming the file and field. */
export function readEffortFile(file: string): EffortMap {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (cause) {
    if (cause instanceof EffortMapError) throw cause;
    throw new EffortMapError(
      "EFFORT_FILE_UNREADABLE",
      `${file}: cannot read the effort file (${(cause as NodeJS.ErrnoException).code ?? "error"})`,
      file,
      undefined,
      { cause },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new EffortMapError(
      "EFFORT_FILE_NOT_JSON",
      `${file}: is not JSON (${(cause as Error).message}); expected e.g. {"adapters":{"codex":{"levels":{"high":{"model":"gpt-5.5"}}}}}; got ${JSON.stringify(cut(text))}`,
      file,
      undefined,
      { cause },
    );
  }
  const result = validateEffortMap(data);
  if (!result.ok) {
    // The most specific path names the field best (ajv reports a bad key on its parent too).
    const field = result.errors.reduce((a, b) => (b.path.length > a.path.length ? b : a)).path;
    const all = result.errors.map((e) => `\`${e.path || "(root)"}\` ${e.message}`).join("; ");
    throw new EffortMapError("EFFORT_FILE_INVALID", `${file}: ${cut(all, 400)}`, file, field);
  }
  return result.value;
}

function mergeLevel(base: EffortLevel | undefined, over: EffortLevel): EffortLevel {
  const merged: EffortLevel = { ...base };
  if (over.model !== undefined) merged.model = over.model;
  // args are an ordered list: an override replaces them as a whole (merging flag lists is guesswork).
  if (over.args !== undefined) merged.args = [...over.args];
  if (over.env !== undefined) merged.env = { ...base?.env, ...over.env };
  return merged;
}

/** Merges `over` onto `base` key by key: adapter, then level, then model/args/env (env per variable). */
export function mergeEffortMaps(base: EffortMap, over: EffortMap): EffortMap {
  const adapters: Record<string, AdapterEffort> = { ...base.adapters };
  for (const [name, overAdapter] of Object.entries(over.adapters)) {
    const baseAdapter = adapters[name] ?? {};
    const levels: Record<string, EffortLevel> = { ...baseAdapter.levels };
    for (const [level, overLevel] of Object.entries(overAdapter.levels ?? {})) {
      levels[level] = mergeLevel(levels[level], overLevel);
    }
    const merged: AdapterEffort = { ...baseAdapter, levels };
    if (overAdapter.default_effort !== undefined) merged.default_effort = overAdapter.default_effort;
    adapters[name] = merged;
  }
  return { adapters };
}

/**
 * The override files that apply, weakest first: `$DEBATEKIT_EFFORT_FILE` (user-wide), then
 * `<debateDir>/effort.json` (this debate only) when it exists.
 */
export function findEffortOverrides(options: { debateDir?: string; env?: NodeJS.ProcessEnv } = {}): string[] {
  const files: string[] = [];
  const fromEnv = options.env?.[effortFileEnv];
  if (fromEnv) files.push(isAbsolute(fromEnv) ? fromEnv : resolve(fromEnv));
  if (options.debateDir) {
    const local = join(options.debateDir, debateEffortFileName);
    if (existsSync(local)) files.push(local);
  }
  return files;
}

/** Loads the shipped effort map and merges each override file onto it, in order (later wins). */
export function loadEffortMap(overridePath?: string | readonly string[]): EffortMap {
  const overrides =
    overridePath === undefined ? [] : typeof overridePath === "string" ? [overridePath] : overridePath;
  let map = readEffortFile(shippedEffortFile);
  for (const file of overrides) map = mergeEffortMaps(map, readEffortFile(file));
  return map;
}

/** The model, args and env for a seat: the seat's own model wins over the map's; unknown levels add nothing. */
export function resolveEffort(
  map: EffortMap,
  adapter: string,
  seat: Pick<SeatConfig, "model" | "effort">,
): ResolvedEffort {
  const entry = map.adapters[adapter];
  const effort = seat.effort ?? entry?.default_effort ?? fallbackEffort;
  const level = entry?.levels?.[effort];
  const model = seat.model ?? level?.model;
  return {
    effort,
    ...(model !== undefined ? { model } : {}),
    args: [...(level?.args ?? [])],
    env: { ...level?.env },
  };
}
