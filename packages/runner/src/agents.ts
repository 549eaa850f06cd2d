import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type AgentTemplate, DebatekitError, defaultAgentTemplates, formatRuleErrors } from "@debatekit/core";
import { MAX_MARKDOWN_BYTES, readTextInside, splitFrontmatter } from "@debatekit/files";
import { type AgentDefinition, formatValidationErrors, validateAgentDefinition } from "@debatekit/schema";

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
const BUILTIN_NAMES = new Set(defaultAgentTemplates.map((t) => t.definition.name));

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The nearest `.debatekit/agents/` at or above `cwd`, or null. */
async function findProjectAgents(cwd: string): Promise<string | null> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, ".debatekit", "agents");
    if (await isDirectory(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The folders whose role templates replace the built-in ones, from the most general to the most
 * specific (later wins): the user's `$XDG_CONFIG_HOME/debatekit/agents` (default
 * `~/.config/debatekit/agents`), the project's `.debatekit/agents/` (nearest at or above cwd), and
 * the debate's own `agents/`. Only those that exist.
 */
export async function agentRoots(options: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  debateDir: string;
}): Promise<string[]> {
  const env = options.env ?? {};
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  const candidates = [
    join(config, "debatekit", "agents"),
    await findProjectAgents(options.cwd),
    join(resolve(options.debateDir), "agents"),
  ];
  const roots: string[] = [];
  for (const candidate of candidates)
    if (candidate && !roots.includes(candidate) && (await isDirectory(candidate))) roots.push(candidate);
  return roots;
}

function invalid(file: string, field: string, message: string): DebatekitError {
  return new DebatekitError("AGENT_INVALID", `${file}: ${message}`, { file, field });
}

/** One override file, checked as the built-in templates are at codegen: schema, name, placeholders. */
async function readOverride(root: string, name: string): Promise<AgentTemplate> {
  const file = join(root, `${name}.md`);
  const read = await readTextInside(root, `${name}.md`, MAX_MARKDOWN_BYTES);
  if (!read.ok) throw invalid(file, "(file)", formatRuleErrors(read.errors).join("; "));
  const text = read.value;
  if (text === undefined) throw invalid(file, "(file)", "disappeared while it was read");
  const split = splitFrontmatter(text, file);
  if (!split.ok) throw invalid(file, "(frontmatter)", formatRuleErrors(split.errors).join("; "));
  const checked = validateAgentDefinition(split.value.data);
  if (!checked.ok) throw invalid(file, "(frontmatter)", formatValidationErrors(checked.errors));
  const definition: AgentDefinition = checked.value;
  if (definition.name !== name)
    throw invalid(file, "name", `\`name\` must be "${name}", found "${definition.name}"`);
  const builtin = defaultAgentTemplates.find((t) => t.definition.name === name)!;
  for (const key of ["role", "task"] as const)
    if (definition[key] !== builtin.definition[key])
      throw invalid(
        file,
        key,
        `\`${key}\` must stay "${builtin.definition[key]}" (the built-in ${name}'s); found "${definition[key]}"`,
      );
  const body = split.value.body.replace(/^\n+/, "");
  const used = new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  const declared = new Set(definition.placeholders ?? []);
  const offered = new Set(builtin.definition.placeholders ?? []);
  for (const p of used)
    if (!declared.has(p))
      throw invalid(file, "placeholders", `the body uses {{${p}}} but \`placeholders\` does not declare it`);
  for (const p of declared)
    if (!offered.has(p))
      throw invalid(
        file,
        "placeholders",
        `{{${p}}} is not given to ${name}; it gets ${[...offered].map((o) => `{{${o}}}`).join(", ")}`,
      );
  return { definition: { ...definition, placeholders: [...declared].filter((p) => used.has(p)) }, body };
}

/**
 * The role templates for a debate: the built-in ones, each replaced by a file of the same name
 * (`<name>.md`, e.g. `judge.md`) in the agent roots, the most specific winning. Other files in those
 * folders are not ours and are left alone. A replacement that breaks the rules (schema, name, role,
 * task, placeholders) stops the run before any seat is asked: AGENT_INVALID naming the file and
 * field. Undefined when nothing replaces a built-in.
 */
export async function loadAgentTemplates(roots: readonly string[]): Promise<AgentTemplate[] | undefined> {
  const overrides = new Map<string, AgentTemplate>();
  for (const root of roots) {
    for (const entry of (await readdir(root)).sort()) {
      const name = entry.endsWith(".md") ? entry.slice(0, -3) : "";
      if (!BUILTIN_NAMES.has(name)) continue;
      overrides.set(name, await readOverride(root, name));
    }
  }
  if (overrides.size === 0) return undefined;
  return defaultAgentTemplates.map((t) => overrides.get(t.definition.name) ?? t);
}
