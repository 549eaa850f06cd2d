import type { Stats } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { type Role, validateSkillManifest } from "@debatekit/schema";
import { parseEntry } from "./entry.js";
import { compareCodePoints } from "./match.js";
import { normalizeText, splitWords } from "./normalize.js";
import { quote } from "./quote.js";
import { builtinSkillsRoot } from "./roots.js";
import type { LoadedSkill, SkillProblem } from "./types.js";

/** Size limits; bigger files are reported and skipped, never read. */
export interface LoadLimits {
  /** Default 64 KiB. */
  maxManifestBytes?: number;
  /** Default 256 KiB (a skill is cut to at most 100,000 tokens anyway). */
  maxEntryBytes?: number;
}

/** What loadSkills found: the usable skills (by name) and every problem. */
export interface LoadResult {
  skills: LoadedSkill[];
  problems: SkillProblem[];
}

interface OneResult {
  skill?: LoadedSkill;
  problems: SkillProblem[];
}

interface CacheEntry {
  key: string;
  entryPath?: string;
  entryKey?: string;
  result: OneResult;
}

const MANIFEST = "manifest.json";
/**
 * The names applicable_agents may hold, as the manifest schema lists them (roles and seat kinds);
 * any other name is another tool's agent.
 */
const ROLES: readonly string[] = (
  createRequire(import.meta.url)("@debatekit/schema/schemas/agent.schema.json") as {
    $defs: { Role: { enum: string[] } };
  }
).$defs.Role.enum;
/** The seat kinds a skill applies to when its applicable_agents names only other tools' agents. */
const ALL_ROLES: Role[] = ["debater", "judge"];

/**
 * Skill packs written for opencode-multiagent name that tool's agents in applicable_agents
 * (`critic`, `strategist`, `librarian`, ...). They are set aside so the pack loads as it is: the
 * debatekit roles it names are kept, and when it names none it applies to every role.
 */
function setAsideForeignAgents(data: unknown): { data: unknown; foreign: string[] } {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { data, foreign: [] };
  const agents = (data as { applicable_agents?: unknown }).applicable_agents;
  if (!Array.isArray(agents) || !agents.every((a): a is string => typeof a === "string"))
    return { data, foreign: [] };
  const foreign = agents.filter((a) => !ROLES.includes(a));
  if (foreign.length === 0) return { data, foreign };
  const own = agents.filter((a) => ROLES.includes(a));
  return { data: { ...data, applicable_agents: own.length > 0 ? own : ALL_ROLES }, foreign };
}
/** Skill folders read at the same time (bounded so a big library does not exhaust file handles). */
const LOAD_CONCURRENCY = 32;

/** Maps with at most `limit` calls in flight; results in input order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
// Cache by manifest path: reused while the manifest and the entry file keep their size, mtime
// and inode. A warm load is then one readdir per root plus two stats per skill.
const cache = new Map<string, CacheEntry>();

/** Forgets every cached skill (tests and long-lived processes that want a cold load). */
export function clearSkillCache(): void {
  cache.clear();
}

function signature(s: Stats): string {
  return `${s.size}:${s.mtimeMs}:${s.ino}:${s.dev}`;
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * Loads `<root>/<folder>/manifest.json` and its entry file for every root, in order. Each skill is
 * checked on its own: a bad one is reported (file, field, why) and skipped, never fatal for the
 * others. When two roots hold a skill of the same name, the LATER root wins (pass roots from the
 * most general to the most specific: project, user, debate) and a warning says which was replaced.
 */
export async function loadSkills(roots: readonly string[], limits: LoadLimits = {}): Promise<LoadResult> {
  const problems: SkillProblem[] = [];
  const byName = new Map<string, LoadedSkill>();
  for (const rootArg of roots) {
    const root = resolve(rootArg);
    let folders: string[];
    try {
      const entries = await readdir(root, { withFileTypes: true });
      folders = entries
        .filter((e) => !e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink()))
        .map((e) => e.name)
        .sort(compareCodePoints);
    } catch (cause) {
      const missing = (cause as NodeJS.ErrnoException).code === "ENOENT";
      problems.push({
        code: missing ? "SKILL_ROOT_MISSING" : "SKILL_ROOT_UNREADABLE",
        severity: missing ? "warning" : "error",
        file: root,
        message: missing
          ? `skills folder ${root} does not exist; no skills loaded from it`
          : `skills folder ${root} cannot be read: ${(cause as Error).message}`,
        cause,
      });
      continue;
    }
    const fromThisRoot = new Map<string, LoadedSkill>();
    const results = await mapLimited(folders, LOAD_CONCURRENCY, async (folder): Promise<OneResult> => {
      const dir = join(root, folder);
      const dirStat = await statOrNull(dir);
      return dirStat?.isDirectory() ? loadSkillFolder(root, dir, limits) : { problems: [] };
    });
    // Results are used in folder order, so which copy wins a clash never depends on timing.
    for (const { skill, problems: found } of results) {
      problems.push(...found);
      if (!skill) continue;
      const sameRoot = fromThisRoot.get(skill.name);
      if (sameRoot) {
        problems.push({
          code: "SKILL_DUPLICATE",
          severity: "error",
          file: skill.manifestPath,
          field: "name",
          skill: skill.name,
          message: `skill name ${quote(skill.name)} is already used by ${sameRoot.manifestPath} in the same folder; this copy is skipped (rename one of them)`,
        });
        continue;
      }
      const earlier = byName.get(skill.name);
      // Replacing a built-in skill with one's own is what the roots are for: no warning then.
      if (earlier && !earlier.manifestPath.startsWith(`${builtinSkillsRoot}${sep}`)) {
        problems.push({
          code: "SKILL_DUPLICATE",
          severity: "warning",
          file: skill.manifestPath,
          field: "name",
          skill: skill.name,
          message: `skill ${quote(skill.name)} overrides ${earlier.manifestPath} (a later skills root wins)`,
        });
      }
      fromThisRoot.set(skill.name, skill);
      byName.set(skill.name, skill);
    }
  }
  const skills = [...byName.values()].sort((a, b) => compareCodePoints(a.name, b.name));
  return { skills, problems };
}

/** Loads one skill folder, from the cache when neither of its files changed. */
async function loadSkillFolder(root: string, dir: string, limits: LoadLimits): Promise<OneResult> {
  const manifestPath = join(dir, MANIFEST);
  const manifestStat = await statOrNull(manifestPath);
  if (!manifestStat) {
    cache.delete(manifestPath);
    return {
      problems: [
        {
          code: "SKILL_MANIFEST_MISSING",
          severity: "warning",
          file: manifestPath,
          message: `folder ${dir} has no ${MANIFEST}; it is not loaded as a skill`,
        },
      ],
    };
  }
  const key = signature(manifestStat);
  const cached = cache.get(manifestPath);
  if (cached && cached.key === key) {
    if (cached.entryPath === undefined) return cached.result;
    const entryStat = await statOrNull(cached.entryPath);
    if ((entryStat ? signature(entryStat) : "missing") === cached.entryKey) return cached.result;
  }
  const entry: CacheEntry = { key, result: { problems: [] } };
  entry.result = await readSkillFolder(root, dir, manifestPath, manifestStat, limits, entry);
  cache.set(manifestPath, entry);
  return entry.result;
}

async function readSkillFolder(
  root: string,
  dir: string,
  manifestPath: string,
  manifestStat: Stats,
  limits: LoadLimits,
  cacheEntry: CacheEntry,
): Promise<OneResult> {
  const problems: SkillProblem[] = [];
  const fail = (problem: Omit<SkillProblem, "severity">): OneResult => ({
    problems: [...problems, { ...problem, severity: "error" }],
  });
  const maxManifest = limits.maxManifestBytes ?? 64 * 1024;
  if (manifestStat.size > maxManifest) {
    return fail({
      code: "SKILL_MANIFEST_TOO_LARGE",
      file: manifestPath,
      message: `${MANIFEST} is ${manifestStat.size} bytes; at most ${maxManifest} are read`,
    });
  }
  const raw = await readFile(manifestPath, "utf8");
  let data: unknown;
  try {
    data = JSON.parse(raw.replace(/^\uFEFF/, ""));
  } catch (cause) {
    return fail({
      code: "SKILL_MANIFEST_NOT_JSON",
      file: manifestPath,
      message: `${MANIFEST} is not valid JSON (${(cause as Error).message}); expected an object like {"name": "evidence-standards", "version": "1.0.0", ...}; got ${quote(raw)}`,
      cause,
    });
  }
  const aside = setAsideForeignAgents(data);
  const checked = validateSkillManifest(aside.data);
  if (!checked.ok) {
    const skill = (data as { name?: unknown } | null)?.name;
    return {
      problems: checked.errors.map((error) => ({
        code: "SKILL_MANIFEST_INVALID" as const,
        severity: "error" as const,
        file: manifestPath,
        field: error.path || "(root)",
        ...(typeof skill === "string" ? { skill } : {}),
        message: `${error.path || "manifest"}: ${error.message}`,
      })),
    };
  }
  const manifest = checked.value;
  if (aside.foreign.length > 0) {
    problems.push({
      code: "SKILL_AGENTS_FOREIGN",
      severity: "warning",
      file: manifestPath,
      field: "applicable_agents",
      skill: manifest.name,
      message: `applicable_agents names ${aside.foreign.map((a) => quote(a)).join(", ")}, not debatekit roles (${ROLES.join(", ")}); read as another tool's agents and set aside, so the skill applies to ${manifest.applicable_agents.join(", ")}`,
    });
  }
  const folder = relative(root, dir);
  if (manifest.name !== folder) {
    problems.push({
      code: "SKILL_NAME_MISMATCH",
      severity: "warning",
      file: manifestPath,
      field: "name",
      skill: manifest.name,
      message: `name ${quote(manifest.name)} differs from its folder ${quote(folder)}; the name is used`,
    });
  }
  manifest.triggers.forEach((trigger, i) => {
    if (trigger.trim() !== "*" && splitWords(normalizeText(trigger)).length === 0) {
      problems.push({
        code: "SKILL_TRIGGER_UNUSABLE",
        severity: "warning",
        file: manifestPath,
        field: `triggers[${i}]`,
        skill: manifest.name,
        message: `trigger ${quote(trigger)} has no letters or digits and can never match; use words, or "*" for always`,
      });
    }
  });
  (manifest.concepts ?? []).forEach((concept, c) => {
    concept.phrases.forEach((phrase, i) => {
      if (splitWords(normalizeText(phrase)).length > 0) return;
      problems.push({
        code: "SKILL_TRIGGER_UNUSABLE",
        severity: "warning",
        file: manifestPath,
        field: `concepts[${c}].phrases[${i}]`,
        skill: manifest.name,
        message: `phrase ${quote(phrase)} of concept ${quote(concept.name)} has no letters or digits and can never match; use words`,
      });
    });
  });
  const fromEntry = (code: SkillProblem["code"], message: string, file: string, cause?: unknown): OneResult =>
    fail({ code, file, field: "entry_file", skill: manifest.name, message, ...(cause ? { cause } : {}) });

  const entryFile = manifest.entry_file;
  const lexical = resolve(dir, entryFile);
  if (isAbsolute(entryFile) || !isInside(dir, lexical)) {
    return fromEntry(
      "SKILL_ENTRY_OUTSIDE",
      `entry_file ${quote(entryFile)} points outside the skill folder ${dir}; expected a path inside it, like "SKILL.md"`,
      manifestPath,
    );
  }
  let entryPath: string;
  try {
    entryPath = await realpath(lexical);
  } catch (cause) {
    cacheEntry.entryPath = lexical;
    cacheEntry.entryKey = "missing";
    return fromEntry(
      "SKILL_ENTRY_MISSING",
      `entry_file ${quote(entryFile)} does not exist (looked for ${lexical})`,
      manifestPath,
      cause,
    );
  }
  const entryStat = await stat(entryPath);
  // Keyed on the path as written: stat follows a symlink, so re-pointing it changes the key.
  cacheEntry.entryPath = lexical;
  cacheEntry.entryKey = signature(entryStat);
  const realDir = await realpath(dir);
  if (!isInside(realDir, entryPath)) {
    return fromEntry(
      "SKILL_ENTRY_OUTSIDE",
      `entry_file ${quote(entryFile)} resolves through a symlink to ${entryPath}, outside the skill folder ${realDir}`,
      manifestPath,
    );
  }
  if (!entryStat.isFile()) {
    return fromEntry(
      "SKILL_ENTRY_NOT_FILE",
      `entry_file ${quote(entryFile)} is not a regular file`,
      manifestPath,
    );
  }
  const maxEntry = limits.maxEntryBytes ?? 256 * 1024;
  if (entryStat.size > maxEntry) {
    return fromEntry(
      "SKILL_ENTRY_TOO_LARGE",
      `entry file is ${entryStat.size} bytes; at most ${maxEntry} are read (split the skill or shorten it)`,
      entryPath,
    );
  }
  const parsed = parseEntry(await readFile(entryPath));
  if (!parsed.ok) {
    return fromEntry(
      parsed.reason === "not_text" ? "SKILL_ENTRY_NOT_TEXT" : "SKILL_ENTRY_FRONTMATTER",
      `entry file ${parsed.message}`,
      entryPath,
      parsed.cause,
    );
  }
  if (parsed.body === "") {
    return fromEntry("SKILL_ENTRY_EMPTY", "entry file has no text after its frontmatter", entryPath);
  }
  const skill: LoadedSkill = {
    name: manifest.name,
    manifest,
    root,
    dir,
    manifestPath,
    entryPath,
    text: parsed.body,
    frontmatter: parsed.frontmatter,
  };
  return { skill, problems };
}
