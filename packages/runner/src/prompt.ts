import { join, resolve } from "node:path";
import type { AgentTemplate, DebateState } from "@debatekit/core";
import { formatOfState } from "@debatekit/core";
import {
  DEFAULT_SKILL_BUDGET_TOKENS,
  defaultSkillRoots,
  loadSkills,
  type Selection,
  type SkillProblem,
  selectSkills,
} from "@debatekit/skills";
import { agentRoots, loadAgentTemplates } from "./agents.js";

/** What goes into a seat's prompt besides the state. */
export interface PromptInput {
  /** Validation errors of the previous attempt, fed back on a retry. */
  feedback?: string[];
  /** The skills block chosen for this seat by chooseSkills (already within its budget). */
  skills?: string;
  /** Role templates replacing the built-in ones (loadAgentTemplates); default: the built-in ones. */
  templates?: AgentTemplate[];
}

/** The prompt for one seat at the debate's current step (the one place prompts are assembled). */
export function assemblePrompt(state: DebateState, role: string, input: PromptInput = {}): string {
  return formatOfState(state).prompt(state, role, {
    ...(input.feedback && input.feedback.length > 0 ? { feedback: input.feedback } : {}),
    ...(input.skills ? { skills: input.skills } : {}),
    ...(input.templates ? { templates: input.templates } : {}),
  });
}

/** The text a seat's skills are matched against: motion, definitions, scope and the seat's task. */
export function skillMatchText(state: DebateState, role: string): string {
  const task = formatOfState(state).skillTask(state, role);
  const { text, definitions, scope } = state.motion;
  return [text, definitions, scope, task].filter((part) => part && part.trim() !== "").join("\n\n");
}

/** The skills chosen for one seat, and what was wrong with the skills folders on the way. */
export interface SkillChoice {
  /** null when debate.md says `skills.enabled: false`. */
  selection: Selection | null;
  /** Every problem loadSkills reported (the skills concerned were skipped); none when nothing was loaded. */
  problems: SkillProblem[];
}

/**
 * What one run remembers of the skills folders: their roots, what was loaded from them, and each
 * selection made. A run reads the folders once (not at every step: a stat per file per step was
 * most of a step's cost); a skill edited during a run is used from the next run on.
 */
export interface SkillCache {
  roots: Map<string, Promise<string[]>>;
  /** The role templates of each debate folder (agent roots are read once per run too). */
  agents: Map<string, Promise<AgentTemplate[] | undefined>>;
  loaded: Map<string, ReturnType<typeof loadSkills>>;
  selections: Map<string, Selection>;
}

/** An empty SkillCache, for one run. */
export function createSkillCache(): SkillCache {
  return { roots: new Map(), agents: new Map(), loaded: new Map(), selections: new Map() };
}

function remembered<T>(map: Map<string, T>, key: string, make: () => T, cache: boolean): T {
  if (!cache) return make();
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** `extra` folders go after the default roots and before the debate's own skills/ (it wins by name). */
function withExtraRoots(roots: string[], extra: string[], dir: string): string[] {
  if (extra.length === 0) return roots;
  const own = join(resolve(dir), "skills");
  return [...roots.filter((r) => r !== own), ...extra, ...(roots.includes(own) ? [own] : [])];
}

/**
 * Chooses the skills for one seat from debate.md's settings: `skills.enabled` (false: none, no
 * folder read), the seat's `skill_budget_tokens`, else `skills.budget_tokens`, else 4000, and
 * `skills.exclude`. `skillRoots` replaces the default roots (project skills/, the user's folder
 * found through `env`, the run's environment (default process.env), the debate's own skills/).
 * Skills with problems are skipped and the problems returned.
 */
export async function chooseSkills(
  state: DebateState,
  role: string,
  options: {
    dir: string;
    cwd: string;
    env?: NodeJS.ProcessEnv;
    skillRoots?: string[];
    extraSkillRoots?: string[];
    cache?: SkillCache;
  },
): Promise<SkillChoice> {
  const settings = state.frontmatter.skills;
  if (settings?.enabled === false) return { selection: null, problems: [] };
  const { cache } = options;
  const env = options.env ?? process.env;
  const roots =
    options.skillRoots ??
    withExtraRoots(
      await remembered(
        cache?.roots ?? new Map(),
        JSON.stringify([options.cwd, options.dir]),
        () => defaultSkillRoots({ cwd: options.cwd, env, debateDir: options.dir }),
        cache !== undefined,
      ),
      options.extraSkillRoots ?? [],
      options.dir,
    );
  const { skills, problems } = await remembered(
    cache?.loaded ?? new Map(),
    JSON.stringify(roots),
    () => loadSkills(roots),
    cache !== undefined,
  );
  const format = formatOfState(state);
  const budgetTokens =
    format.seat(state, role)?.skill_budget_tokens ?? settings?.budget_tokens ?? DEFAULT_SKILL_BUDGET_TOKENS;
  const kind = format.roles.find((r) => r.role === role)?.kind;
  const query = {
    text: skillMatchText(state, role),
    // Skills name the roles they apply to, or the kind of seat (`debater`) the format gives a role.
    role,
    kinds: kind ? [kind] : [],
    // A skill written for one format's seat (the formal judge's rubric) reaches no other format's.
    format: format.name,
    budgetTokens,
    exclude: settings?.exclude ?? [],
  };
  const selection = remembered(
    cache?.selections ?? new Map(),
    JSON.stringify([roots, query]),
    () => selectSkills(skills, query),
    cache !== undefined,
  );
  return { selection, problems };
}

/**
 * The role templates for a seat of the debate in `dir`: the built-in ones with the user's, the
 * project's and the debate's own replacements (agents.ts); read once per run with a cache.
 */
export function chooseTemplates(options: {
  dir: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  cache?: SkillCache;
}): Promise<AgentTemplate[] | undefined> {
  const env = options.env ?? process.env;
  return remembered(
    options.cache?.agents ?? new Map(),
    JSON.stringify([options.cwd, options.dir]),
    async () => loadAgentTemplates(await agentRoots({ cwd: options.cwd, env, debateDir: options.dir })),
    options.cache !== undefined,
  );
}
