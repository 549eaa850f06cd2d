import { existsSync } from "node:fs";
import { appendFile, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { GateRun } from "@debatekit/core";
import type { GatePolicy, GateResult, GateSettings, SeatConfig } from "@debatekit/schema";
import { type Command, CommanderError, Option } from "commander";
import { ExitError, redactOutput } from "../exit-error.js";
import type { BaseTree } from "../gate/base.js";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";

/** The CLI's own version (SARIF names it). */
const VERSION = "0.1.0";

interface GateOptions {
  scope: string;
  policy?: string;
  critic?: string;
  author?: string;
  judge?: string;
  judges?: string[];
  fallbackJudge?: string;
  intensity?: string;
  maxRounds?: number;
  budgetMinutes?: number;
  dir: string;
  slug?: string;
  json?: boolean;
  sarif?: string;
  comment?: string;
}

const posix = (path: string) => path.split(sep).join("/");
const seat = (adapter: string | undefined, fromPolicy: SeatConfig | undefined) =>
  adapter ? ({ adapter } as SeatConfig) : fromPolicy;

/** A folder name no earlier gate of the same scope took: gate-<scope>-<UTC time>. */
function gateSlug(scope: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").toLowerCase();
  const name = scope
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `gate-${name || "scope"}-${stamp}`;
}

/** `slug`, or `slug-2`, `slug-3`... when a gate of the same scope already ran in the same second. */
function freeSlug(parent: string, slug: string): string {
  let candidate = slug;
  for (let n = 2; existsSync(join(parent, candidate)); n++) candidate = `${slug}-${n}`;
  return candidate;
}

/**
 * `result` with every string redacted (its reason quotes the policy, errors and model text): before
 * any output renders or cuts it, so a PR comment never carries a key the user put in the wrong place.
 */
function redactResult(result: GateResult, env: CliIO["env"]): GateResult {
  return JSON.parse(
    JSON.stringify(result, (_key, value: unknown) =>
      typeof value === "string" ? redactOutput(value, env) : value,
    ),
  ) as GateResult;
}

/**
 * Writes the gate's result (already redacted: see redactResult) where CI looks: --json, --sarif,
 * --comment and $GITHUB_STEP_SUMMARY. `changed` (the change's files) are the only files a SARIF
 * result may point at.
 */
async function writeOutputs(
  io: CliIO,
  opts: GateOptions,
  result: GateResult,
  changed: ReadonlySet<string>,
): Promise<void> {
  const [{ renderGateComment }, { renderGateSarif }] = await Promise.all([
    import("../gate/comment.js"),
    import("../gate/sarif.js"),
  ]);
  const comment = renderGateComment(result);
  if (opts.sarif)
    await writeFile(
      resolve(io.cwd, opts.sarif),
      `${JSON.stringify(renderGateSarif(result, VERSION, changed), null, 2)}\n`,
    );
  if (opts.comment) await writeFile(resolve(io.cwd, opts.comment), comment);
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) await appendFile(summary, comment);
  if (opts.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else
    io.stdout.write(
      `${result.outcome} (exit ${result.exit_code})${result.dir ? `: ${relative(io.cwd, result.dir) || "."}` : ""}\n`,
    );
}

/**
 * The policy: a file inside the repository as the base revision has it (a change to it applies once
 * merged), a file outside it (the workflow's own) as it is. Returns the repository file it read.
 */
async function readPolicy(
  io: CliIO,
  file: string | undefined,
  tree: BaseTree,
): Promise<{ policy: GatePolicy; from?: string }> {
  const { loadGatePolicy } = await import("../gate/policy.js");
  if (file === undefined || !tree.contains(file)) return { policy: await loadGatePolicy(io.cwd, file) };
  const copy = await tree.copyOf(file);
  if (copy === undefined)
    throw new ExitError(
      `${file}: not in the base revision ${tree.revision.slice(0, 12)}: a gate reads the policy the change starts from, never the change's own (a policy file outside the repository is read as it is)`,
      2,
    );
  return {
    policy: await loadGatePolicy(tree.cwd, relative(tree.cwd, copy)),
    from: posix(relative(tree.dir, copy)),
  };
}

/**
 * The config as the base revision has it (data files only: a JS config is code from the repository
 * and is never run) and its skill folders, those inside the repository as the base has them.
 */
async function readConfig(io: CliIO, tree: BaseTree): Promise<{ skillFolders: string[]; from: string[] }> {
  for (const file of tree.codeConfigs)
    io.stderr.write(
      `warning: ${file} (base revision): not run: a gate reads only JSON or YAML config files (a JS config is code from the repository under review)\n`,
    );
  const { loadConfig } = await import("../config.js");
  const { config, files } = await loadConfig(io, tree);
  const skillFolders: string[] = [];
  for (const folder of config.skills?.folders ?? []) {
    const at = tree.contains(folder) ? await tree.copyOf(folder) : folder;
    if (at !== undefined) skillFolders.push(at);
  }
  return {
    skillFolders,
    from: files.filter((f) => tree.contains(f)).map((f) => posix(relative(tree.root, f))),
  };
}

/**
 * Runs the gate: review the scope to its end, then judge the result under the policy; returns the
 * result and the change's files. The policy, config, role prompts and skills come from the base
 * revision (`settings`, filled in as soon as it is known), never from the change under review.
 */
async function runGate(
  io: CliIO,
  opts: GateOptions,
  settings: { value?: GateSettings },
): Promise<{ result: GateResult; changed: Set<string> }> {
  // What the gate needs loads when it runs, not when `debate` starts.
  const [{ openBaseTree }, { parseScope }] = await Promise.all([
    import("../gate/base.js"),
    import("../review/scope.js"),
  ]);
  const tree = await openBaseTree(io.cwd, parseScope(opts.scope));
  try {
    settings.value = { base: tree.revision, files: [] };
    const { policy, from } = await readPolicy(io, opts.policy, tree);
    const config = await readConfig(io, tree);
    settings.value.files = [...(from ? [from] : []), ...config.from, ...tree.rolePrompts];
    return await reviewAndJudge(io, opts, policy, tree.cwd, config.skillFolders);
  } finally {
    await tree.dispose();
  }
}

/** Reviews the scope to its end under `policy`, looking up role prompts and skills from `cwd`, and judges it. */
async function reviewAndJudge(
  io: CliIO,
  opts: GateOptions,
  policy: GatePolicy,
  cwd: string,
  extraSkillRoots: string[],
): Promise<{ result: GateResult; changed: Set<string> }> {
  const [
    { evaluateGate },
    { readDebateFolder, readFolderPrograms },
    { runDebate },
    { createProgress },
    { createReview },
  ] = await Promise.all([
    import("@debatekit/core"),
    import("@debatekit/files"),
    import("@debatekit/runner"),
    import("../progress.js"),
    import("../actions/review.js"),
  ]);
  if (opts.judge !== undefined && opts.judges !== undefined)
    throw new ExitError("give --judge (one judge) or --judges (a panel), not both", 2);
  if (policy.judge && policy.judges)
    throw new ExitError(`${opts.policy}: give \`judge\` (one judge) or \`judges\` (a panel), not both`, 2);
  const critic = seat(opts.critic, policy.critic);
  const author = seat(opts.author, policy.author);
  // A panel: --judges, else the policy's `judges` (unless --judge names one judge).
  const panel =
    opts.judges !== undefined
      ? opts.judges.map((adapter) => ({ adapter }) as SeatConfig)
      : opts.judge === undefined
        ? policy.judges
        : undefined;
  if (panel && panel.length > 5)
    throw new ExitError(`--judges: expected 1-5 judges, found ${panel.length}`, 2);
  const judge = panel ? undefined : seat(opts.judge, policy.judge);
  const fallback = seat(opts.fallbackJudge, policy.fallback_judge);
  // The policy's quorum (default: every judge of the panel) must be reachable.
  const quorum = panel ? (policy.quorum ?? panel.length) : undefined;
  if (panel && quorum! > panel.length)
    throw new ExitError(
      `${opts.policy}: \`quorum\` (${quorum}) is more than the panel's ${panel.length} judge(s)`,
      2,
    );
  const {
    dir,
    frontmatter: fm,
    warnings,
    origin,
    revision,
    changed,
  } = await createReview(io, {
    scope: opts.scope,
    critic: critic?.adapter,
    author: author?.adapter,
    judge: judge?.adapter,
    intensity: opts.intensity ?? policy.intensity ?? "quick",
    maxRounds: opts.maxRounds ?? policy.max_rounds,
    budgetMinutes: opts.budgetMinutes ?? policy.budget_minutes,
    mode: "auto",
    // The gate judges the change as it is: nobody writes the accepted version.
    materialize: false,
    slug:
      opts.slug ?? freeSlug(resolve(io.cwd, String(opts.dir ?? "debates")), gateSlug(opts.scope, new Date())),
    dir: opts.dir,
    seats: {
      ...(critic ? { critic } : {}),
      ...(author ? { author } : {}),
      ...(judge ? { judge } : {}),
    },
    // A panel, or one judge with a fallback: the review's `judges:` (one fallback concept: judges.fallback).
    ...(panel || fallback
      ? {
          judges: {
            ...(panel ? { panel } : {}),
            ...(quorum !== undefined ? { quorum } : {}),
            ...(fallback ? { fallback } : {}),
          },
        }
      : {}),
  });
  // A CI log is public too: warnings quote the policy and the scope.
  for (const warning of warnings) io.stderr.write(`warning: ${redactOutput(warning, io.env)}\n`);
  if (!opts.json)
    io.stderr.write(
      `gate: reviewing ${origin} in ${relative(io.cwd, dir) || "."} (${fm.max_rounds} round(s), ${fm.budget_minutes} min)\n`,
    );
  // Every seat of the folder the gate just made comes from its own settings (the policy as the base
  // revision has it, the flags): a command or server named there is the workflow's choice, not the
  // change's, so the gate vouches for it for this run instead of asking for `debate allow`.
  const vouched = (await readFolderPrograms(dir, { env: io.env })).programs.map((p) => p.hash);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const progress = opts.json ? undefined : createProgress(io);
  let run: GateRun;
  try {
    const summary = await runDebate(dir, {
      signal: controller.signal,
      env: io.env,
      cwd,
      ...(extraSkillRoots.length > 0 ? { extraSkillRoots } : {}),
      command: `debate gate ${origin}`,
      vouched,
      ...(progress ? { onEvent: progress.onEvent } : {}),
    });
    run = {
      status: summary.status,
      ...(summary.error ? { error: { code: summary.error.code, message: summary.error.message } } : {}),
      ...(summary.error?.role ? { role: summary.error.role } : {}),
      ...(summary.error?.adapter ? { adapter: summary.error.adapter } : {}),
      ...(summary.reason ? { reason: summary.reason } : {}),
    };
  } finally {
    progress?.stop();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new ExitError(`${dir}: ${read.errors[0]?.message ?? "unreadable"}`, 2);
  const result = evaluateGate({
    state: read.value.state,
    run,
    policy,
    dir,
    scope: origin,
    ...(revision ? { revision } : {}),
  });
  return { result, changed: new Set(changed) };
}

/** `debate gate`: review a change in CI and exit 0 pass, 1 blocked, 2 undecided (docs/architecture.md#honest-degradation). */
export function registerGate(program: Command, io: CliIO): void {
  program
    .command("gate")
    .description("review a change in CI: exit 0 pass, 1 blocked, 2 undecided (never 0 when unsure)")
    .addOption(
      new Option("--scope <scope>", "the change: base:BRANCH, range:A..B, commit:SHA or uncommitted").default(
        "base:main",
      ),
    )
    .option(
      "--policy <file>",
      "a gate policy (YAML or JSON): what blocks, seats, fallback judge, budget; read as the base revision has it when inside the repository",
    )
    .option("--critic <adapter>", "who critiques (overrides the policy)")
    .option("--author <adapter>", "who answers a D (rebuttal) or C (compromise) (overrides the policy)")
    .option("--judge <adapter>", "who classifies and decides (overrides the policy)")
    .option(
      "--judges <adapters>",
      "a judge panel, comma-separated (e.g. claude,gemini,opencode): asked in parallel, decided by majority; the policy's quorum (default: all) must answer (overrides the policy)",
      (value: string) =>
        value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
    )
    .option(
      "--fallback-judge <adapter>",
      "asked when the judge fails or the panel misses its quorum (overrides the policy)",
    )
    .addOption(
      new Option(
        "--intensity <preset>",
        "quick 1 round/10 min (default), standard 3/20, extensive 5/40",
      ).choices(["quick", "standard", "extensive"]),
    )
    .option("--max-rounds <n>", "at most this many rounds", parsePositiveInt)
    .option(
      "--budget-minutes <m>",
      "the seats' time budget; spent before a decision = undecided",
      parsePositiveInt,
    )
    .option("--dir <parent>", "where the review folder is created", "debates")
    .option("--slug <slug>", "the review folder's name (default gate-<scope>-<time>)")
    .option("--json", "print the result as JSON (outcome, exit_code, reason, findings, degraded, settings)")
    .option(
      "--sarif <file>",
      "write SARIF 2.1.0 (code scanning shows each finding inline, at its file when that file is in the change)",
    )
    .option("--comment <file>", "write the markdown pull request comment")
    .addHelpText(
      "after",
      "\nExamples:\n  debate gate --scope base:main --critic codex --judge claude\n  debate gate --scope range:$BASE..$HEAD --policy .github/debate-gate.yml --sarif gate.sarif --comment gate.md\n\nSettings come from the base revision, never from the change under review: the policy (a file outside\nthe repository is read as it is), the config file (JSON or YAML only: a JS config is never run),\n.debatekit/agents/ and skills/. The base is what the change starts from: base:B the merge base of B\nand HEAD, range:A..B A, commit:C its parent, uncommitted HEAD. --json (`settings`) and the comment name it.\n\nExit codes: 0 pass, 1 blocked, 2 undecided (a seat failed, quorum or budget missed, evidence unchecked, bad input).",
    )
    // Bad flags are a gate that could not decide: 2, never 1 (blocked) or 0.
    .exitOverride((error) => {
      if (error.exitCode === 0) throw error;
      throw new CommanderError(2, error.code, error.message);
    })
    .action(async (opts: GateOptions) => {
      let result: GateResult;
      const settings: { value?: GateSettings } = {};
      let changed = new Set<string>();
      try {
        ({ result, changed } = await runGate(io, opts, settings));
      } catch (error) {
        // Whatever stops the gate before a verdict (a bad policy or scope, a broken folder) leaves it undecided.
        const message = error instanceof Error ? error.message : String(error);
        result = {
          outcome: "undecided",
          exit_code: 2,
          reason: `undecided: ${redactOutput(message, io.env).split("\n")[0]}`,
          scope: opts.scope,
          findings: [],
          blocking: [],
          degraded: [],
        };
      }
      if (settings.value) result = { ...result, settings: settings.value };
      result = redactResult(result, io.env);
      await writeOutputs(io, opts, result, changed);
      const { escapeTerminal } = await import("@debatekit/report/escape");
      io.stderr.write(`gate: ${escapeTerminal(result.reason)}\n`);
      if (result.exit_code !== 0) throw new GateExit(result.exit_code);
    });
}

/** Ends the gate with its exit code; the reason is already on stderr. */
class GateExit extends ExitError {
  constructor(code: number) {
    super("", code);
  }
}
