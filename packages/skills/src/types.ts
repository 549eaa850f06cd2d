import type { SkillManifest } from "@debatekit/schema";

/** A skill pack that passed every check, ready to be matched and cut. */
export interface LoadedSkill {
  /** The manifest's `name` (unique after loading). */
  name: string;
  manifest: SkillManifest;
  /** The root folder it was found in (one of loadSkills' roots, resolved). */
  root: string;
  /** The skill's folder. */
  dir: string;
  manifestPath: string;
  /** The entry file's real path (symlinks resolved, inside `dir`). */
  entryPath: string;
  /** The entry file's body: frontmatter removed, `\n` line ends, trimmed. */
  text: string;
  /** The entry file's YAML frontmatter, `{}` when it has none. */
  frontmatter: Record<string, unknown>;
}

/** Stable codes of the problems the loader reports. */
export type SkillProblemCode =
  | "SKILL_ROOT_MISSING"
  | "SKILL_ROOT_UNREADABLE"
  | "SKILL_MANIFEST_MISSING"
  | "SKILL_MANIFEST_TOO_LARGE"
  | "SKILL_MANIFEST_NOT_JSON"
  | "SKILL_MANIFEST_INVALID"
  | "SKILL_NAME_MISMATCH"
  | "SKILL_TRIGGER_UNUSABLE"
  | "SKILL_AGENTS_FOREIGN"
  | "SKILL_ENTRY_MISSING"
  | "SKILL_ENTRY_OUTSIDE"
  | "SKILL_ENTRY_NOT_FILE"
  | "SKILL_ENTRY_TOO_LARGE"
  | "SKILL_ENTRY_NOT_TEXT"
  | "SKILL_ENTRY_FRONTMATTER"
  | "SKILL_ENTRY_EMPTY"
  | "SKILL_DUPLICATE";

/**
 * Something wrong with one skill or root. `error`: the skill was skipped. `warning`: it was loaded
 * (or another copy was used) but someone should look.
 */
export interface SkillProblem {
  code: SkillProblemCode;
  severity: "error" | "warning";
  /** The file (or folder) concerned. */
  file: string;
  /** The field inside the file, as a dotted path, when there is one. */
  field?: string;
  /** What is wrong, what was expected, and the bad content quoted (cut to ~200 chars). */
  message: string;
  /** The skill's name, when known. */
  skill?: string;
  cause?: unknown;
}
