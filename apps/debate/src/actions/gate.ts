import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { GateRun, LabelledSecret, Standing } from "@debatekit/core";
import type { GateHiddenUnicode, GatePolicy, GateResult, GateSettings, SeatConfig } from "@debatekit/schema";
import { ExitError, redactOutput } from "../exit-error.js";
import type { BaseTree } from "../gate/base.js";
import type { ActionContext } from "./context.js";
import { createReview } from "./review.js";

// What the gate needs loads when it runs: the engine, the base tree, the review.

/** What a gate reviews, and who sits; a seat or setting given here wins over the policy's. */
export interface GateInput {
  /** The change: base:BRANCH, range:A..B, commit:SHA or uncommitted. */
  scope: string;
  /** A gate policy file (YAML or JSON), read as the base revision has it when inside the repository. */
  policy?: string;
  critic?: string;
  author?: string;
  judge?: string;
  judges?: string[];
  fallbackJudge?: string;
  intensity?: string;
  maxRounds?: number;
  budgetMinutes?: number;
  /** Where the review folder is created (default: the repository's git folder, `.git/debatekit/gate`). */
  dir?: string;
  slug?: string;
  /** Told what the gate does before its verdict: a warning, the review it starts. */
  onNotice?: (notice: GateNotice) => void;
}

/** What a gate says while it works, before its verdict. Already redacted. */
export type GateNotice =
  | { type: "warning"; message: string }
  | {
      type: "reviewing";
      origin: string;
      dir: string;
      rounds: number;
      minutes: number;
      /** The folder is the default one, in the repository's git folder: outside the working tree. */
      inGitDir: boolean;
      /** The new folder's standing (its progress unit and total), for a progress face to count in. */
      standing?: Standing;
    };

/** A gate's verdict (redacted, with the settings it read) and the files of the change it judged. */
export interface GateOutcome {
  result: GateResult;
  /** The change's files: the only files a SARIF result may point at. */
  changed: Set<string>;
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
function redactResult(
  result: GateResult,
  env: ActionContext["env"],
  seatSecrets: readonly LabelledSecret[],
): GateResult {
  return JSON.parse(
    JSON.stringify(result, (_key, value: unknown) =>
      typeof value === "string" ? redactOutput(value, env, seatSecrets) : value,
    ),
  ) as GateResult;
}

/**
 * The policy: a file inside the repository as the base revision has it (a change to it applies once
 * merged), a file outside it (the workflow's own) as it is. Returns the repository file it read.
 */
async function readPolicy(
  io: ActionContext,
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
async function readConfig(
  io: ActionContext,
  tree: BaseTree,
  notify: (notice: GateNotice) => void,
): Promise<{ skillFolders: string[]; from: string[] }> {
  for (const file of tree.codeConfigs)
    notify({
      type: "warning",
      message: `${file} (base revision): not run: a gate reads only JSON or YAML config files (a JS config is code from the repository under review)`,
    });
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
async function reviewScope(
  io: ActionContext,
  opts: GateInput,
  settings: { value?: GateSettings },
  seatSecrets: LabelledSecret[],
): Promise<GateOutcome> {
  // What the gate needs loads when it runs, not when `debate` starts.
  const [{ openBaseTree }, { parseScope }] = await Promise.all([
    import("../gate/base.js"),
    import("../review/scope.js"),
  ]);
  const tree = await openBaseTree(io.cwd, parseScope(opts.scope));
  try {
    settings.value = { base: tree.revision, files: [] };
    const { policy, from } = await readPolicy(io, opts.policy, tree);
    // The value of every variable a seat of the policy names is a secret of every output.
    const { seatSecretValues } = await import("@debatekit/core");
    seatSecrets.push(...seatSecretValues(policy, io.env));
    const config = await readConfig(io, tree, notifier(io, opts));
    settings.value.files = [...(from ? [from] : []), ...config.from, ...tree.rolePrompts];
    // Kept by default in the git folder: a review folder in the working tree would be an untracked
    // change after every run (and could be committed by mistake).
    const parent = opts.dir ?? join(tree.gitDir, "debatekit", "gate");
    return await reviewAndJudge(io, { ...opts, dir: parent }, policy, tree.cwd, config.skillFolders, {
      inGitDir: opts.dir === undefined,
    });
  } finally {
    await tree.dispose();
  }
}

/** Reviews the scope to its end under `policy`, looking up role prompts and skills from `cwd`, and judges it. */
async function reviewAndJudge(
  io: ActionContext,
  opts: GateInput,
  policy: GatePolicy,
  cwd: string,
  extraSkillRoots: string[],
  where: { inGitDir: boolean },
): Promise<{ result: GateResult; changed: Set<string> }> {
  const [{ evaluateGate, formatOfState }, { readDebateFolder, readFolderPrograms }, { runDebate }] =
    await Promise.all([import("@debatekit/core"), import("@debatekit/files"), import("@debatekit/runner")]);
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
    slug: opts.slug ?? freeSlug(resolve(io.cwd, opts.dir!), gateSlug(opts.scope, new Date())),
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
  const notify = notifier(io, opts);
  for (const message of warnings) notify({ type: "warning", message });
  const start = await readDebateFolder(dir);
  const standing = start.ok ? formatOfState(start.value.state).standing(start.value.state) : undefined;
  notify({
    type: "reviewing",
    origin,
    dir,
    rounds: fm.max_rounds,
    minutes: fm.budget_minutes,
    ...where,
    ...(standing ? { standing } : {}),
  });
  // Every seat of the folder the gate just made comes from its own settings (the policy as the base
  // revision has it, the flags): a command or server named there is the workflow's choice, not the
  // change's, so the gate vouches for it for this run instead of asking for `debate allow`.
  const vouched = (await readFolderPrograms(dir, { env: io.env })).programs.map((p) => p.hash);
  const summary = await runDebate(dir, {
    ...(io.signal ? { signal: io.signal } : {}),
    env: io.env,
    cwd,
    ...(extraSkillRoots.length > 0 ? { extraSkillRoots } : {}),
    command: `debate gate ${origin}`,
    vouched,
    ...(io.onEvent ? { onEvent: io.onEvent } : {}),
  });
  const run: GateRun = {
    status: summary.status,
    ...(summary.error ? { error: { code: summary.error.code, message: summary.error.message } } : {}),
    ...(summary.error?.role ? { role: summary.error.role } : {}),
    ...(summary.error?.adapter ? { adapter: summary.error.adapter } : {}),
    ...(summary.reason ? { reason: summary.reason } : {}),
  };
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new ExitError(`${dir}: ${read.errors[0]?.message ?? "unreadable"}`, 2);
  const hidden = await hiddenUnicodeOf(dir);
  const result = evaluateGate({
    state: read.value.state,
    run,
    policy,
    dir,
    scope: origin,
    ...(revision ? { revision } : {}),
  });
  return {
    result: hidden.length > 0 ? { ...result, hidden_unicode: hidden } : result,
    changed: new Set(changed),
  };
}

/** Where the change the review snapshotted (its artifact/v1.md) adds hidden Unicode. */
async function hiddenUnicodeOf(dir: string): Promise<GateHiddenUnicode[]> {
  const [{ readFile }, { hiddenUnicodeInDiff }] = await Promise.all([
    import("node:fs/promises"),
    import("../gate/hidden-unicode.js"),
  ]);
  const text = await readFile(join(dir, "artifact", "v1.md"), "utf8").catch(() => "");
  return hiddenUnicodeInDiff(text);
}

/** Passes a notice on to `opts.onNotice`, redacted: a CI log is public, and warnings quote the policy and the scope. */
function notifier(io: ActionContext, opts: GateInput): (notice: GateNotice) => void {
  return (notice) => {
    if (notice.type === "warning")
      opts.onNotice?.({ ...notice, message: redactOutput(notice.message, io.env) });
    else opts.onNotice?.(notice);
  };
}

/**
 * Reviews a change and judges it under the policy: pass (exit 0), blocked (1) or undecided (2).
 * Never throws: whatever stops the gate before a verdict (a bad policy or scope, a broken folder)
 * is an undecided result. The policy, config, role prompts and skills come from the base revision,
 * never from the change under review; the result names them (`settings`) and is redacted.
 */
export async function runGate(ctx: ActionContext, input: GateInput): Promise<GateOutcome> {
  const settings: { value?: GateSettings } = {};
  const seatSecrets: LabelledSecret[] = [];
  let outcome: GateOutcome;
  try {
    outcome = await reviewScope(ctx, input, settings, seatSecrets);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = {
      result: {
        outcome: "undecided",
        exit_code: 2,
        reason: `undecided: ${redactOutput(message, ctx.env, seatSecrets).split("\n")[0]}`,
        scope: input.scope,
        findings: [],
        blocking: [],
        degraded: [],
      },
      changed: new Set(),
    };
  }
  const result = settings.value ? { ...outcome.result, settings: settings.value } : outcome.result;
  return { result: redactResult(result, ctx.env, seatSecrets), changed: outcome.changed };
}
