import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import type { ReviewSeverity } from "@debatekit/schema";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt } from "../options.js";
import { type CliIO, shownPath } from "../output.js";

interface BuildFlags {
  repo: string;
  out: string;
  rev: string;
  since?: string;
  max?: number;
  pattern?: string[];
  fixInBody?: boolean;
  issues?: string;
  json?: boolean;
}

interface RunFlags {
  policy: string;
  out?: string;
  limit?: number;
  parallel: number;
  blockOn: string[];
  queue?: string;
  json?: boolean;
}

const SEVERITIES = new Set(["P1", "P2", "P3"]);

/** "P1,P2" -> ["P1", "P2"]; anything else is a usage error naming the flag. */
function parseThreshold(value: string): ReviewSeverity[] {
  const list = value.split(",").map((s) => s.trim());
  if (list.length === 0 || list.some((s) => !SEVERITIES.has(s)))
    throw new ExitError(
      `--block-on: expected severities P1, P2, P3 joined by commas (e.g. P1,P2), got ${JSON.stringify(value)}`,
      2,
    );
  return list as ReviewSeverity[];
}

/** Ends the command with exit 2 and the error's message: bad input (a set, a repository, a results folder). */
function inputError(error: unknown): never {
  throw new ExitError(error instanceof Error ? error.message : String(error), 2, { cause: error });
}

/** The tracker's labels per issue (`--issues`): JSON Lines of `{"number", "labels"}`; errors name the file, line and field. */
async function readIssues(cwd: string, file: string): Promise<Map<number, string[]>> {
  const { parseIssueLabels } = await import("../gate-eval/fix-commits.js");
  const text = await readFile(resolve(cwd, file), "utf8").catch((error: unknown) => {
    throw new ExitError(`--issues ${file}: cannot read it (${(error as Error).message})`, 2);
  });
  try {
    return parseIssueLabels(text, file);
  } catch (error) {
    return inputError(error);
  }
}

/** `debate gate eval build`: a labelled set from the repository's own history (SZZ). */
async function buildAction(io: CliIO, flags: BuildFlags): Promise<void> {
  const [{ buildEvalSet }, { serializeEvalSet }, { writeFileAtomic }] = await Promise.all([
    import("../gate-eval/build.js"),
    import("../gate-eval/set-file.js"),
    import("@debatekit/files"),
  ]);
  const repo = resolve(io.cwd, flags.repo);
  if (!(await stat(repo).catch(() => undefined))?.isDirectory())
    throw new ExitError(`--repo ${flags.repo}: not a folder (expected a git repository on disk)`, 2);
  const issues = flags.issues ? await readIssues(io.cwd, flags.issues) : undefined;
  const out = resolve(io.cwd, flags.out);
  const repoRef = relative(dirname(out), repo) || ".";
  const built = await buildEvalSet({
    repo,
    repoRef,
    rev: flags.rev,
    ...(flags.since ? { since: flags.since } : {}),
    ...(flags.max ? { max: flags.max } : {}),
    ...(flags.pattern?.length ? { patterns: flags.pattern } : {}),
    ...(flags.fixInBody ? { fixInBody: true } : {}),
    ...(issues ? { issues } : {}),
  }).catch(inputError);
  await writeFileAtomic(out, serializeEvalSet(built.cases));
  const bad = built.cases.filter((c) => c.label === "bad").length;
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ file: out, bad, good: built.cases.length - bad, notes: built.notes, fixes: built.fixes }, null, 2)}\n`,
    );
    return;
  }
  for (const note of built.notes) io.stderr.write(`note: ${note}\n`);
  io.stdout.write(`${shownPath(io.cwd, out)}: ${bad} bad, ${built.cases.length - bad} good case(s)\n`);
}

/** `debate gate eval run`: the gate on every case, then eval.md and eval.json. */
async function runAction(io: CliIO, set: string, flags: RunFlags): Promise<void> {
  const [
    { readEvalSet },
    { EvalStopped, runEvalCases, thresholdName },
    { summarizeEval, scriptedSeats },
    { renderEvalHtml, renderEvalMarkdown },
    { loadGatePolicy },
    { writeFileAtomic },
  ] = await Promise.all([
    import("../gate-eval/set-file.js"),
    import("../gate-eval/run.js"),
    import("../gate-eval/summary.js"),
    import("../gate-eval/render.js"),
    import("../gate/policy.js"),
    import("@debatekit/files"),
  ]);
  const thresholds = flags.blockOn.map(parseThreshold);
  const file = resolve(io.cwd, set);
  const cases = await readEvalSet(file).catch(inputError);
  const policyFile = resolve(io.cwd, flags.policy);
  const policy = await loadGatePolicy(io.cwd, flags.policy);
  const store = resolve(io.cwd, flags.out ?? `${file.replace(/\.jsonl$/, "")}.eval`);
  await mkdir(store, { recursive: true });
  const chosen = cases.slice(0, flags.limit ?? cases.length);
  if (!flags.json)
    io.stderr.write(`gate eval: ${chosen.length} case(s), results in ${shownPath(io.cwd, store)}\n`);
  const results = await runEvalCases({
    cases: chosen,
    policyFile,
    policy,
    store,
    thresholds,
    parallel: flags.parallel,
    ...(flags.queue ? { queue: flags.queue } : {}),
    env: io.env,
    onCase: (r, resumed) => {
      if (!flags.json)
        io.stderr.write(`  ${r.id} (${r.label}): ${resumed ? "done earlier" : r.reason.split(":")[0]}\n`);
    },
  }).catch((error: unknown) => {
    // Interrupted: exit 130, as a shell reports Ctrl-C.
    if (error instanceof EvalStopped) throw new ExitError(error.message, 130, { cause: error });
    inputError(error);
  });
  const summary = summarizeEval(results, thresholds.map(thresholdName), scriptedSeats(policy));
  await writeFileAtomic(join(store, "eval.json"), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(join(store, "eval.md"), renderEvalMarkdown(summary));
  await writeFileAtomic(join(store, "eval.html"), renderEvalHtml(summary));
  if (flags.json) io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else io.stdout.write(`${shownPath(io.cwd, join(store, "eval.md"))}\n`);
}

interface TuneFlags {
  out?: string;
  target: number;
  write?: string;
  json?: boolean;
}

/** "0.8" -> 0.8; anything outside (0, 1] is a usage error naming the flag. */
function parseTarget(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n <= 1))
    throw new ExitError(
      `--target: expected a precision between 0 and 1 (e.g. 0.8), got ${JSON.stringify(value)}`,
      2,
    );
  return n;
}

/** `debate gate eval tune`: the blocking policy reaching the target precision with the best recall. */
async function tuneAction(io: CliIO, set: string, flags: TuneFlags): Promise<void> {
  const [{ readEvalSet }, { renderTunedPolicy, tuneFromStore }, { writeFileAtomic }] = await Promise.all([
    import("../gate-eval/set-file.js"),
    import("../gate-eval/tune.js"),
    import("@debatekit/files"),
  ]);
  const file = resolve(io.cwd, set);
  const cases = await readEvalSet(file).catch(inputError);
  const store = resolve(io.cwd, flags.out ?? `${file.replace(/\.jsonl$/, "")}.eval`);
  const { result, policy } = await tuneFromStore(cases, store, flags.target).catch(inputError);
  const out = resolve(io.cwd, flags.write ?? join(store, "tuned-policy.yml"));
  await writeFileAtomic(join(store, "tune.json"), `${JSON.stringify(result, null, 2)}\n`);
  if (result.chosen) await writeFileAtomic(out, renderTunedPolicy(policy, result, result.chosen));
  if (flags.json)
    io.stdout.write(`${JSON.stringify({ ...result, ...(result.chosen ? { file: out } : {}) }, null, 2)}\n`);
  if (!result.chosen)
    throw new ExitError(
      `no severity threshold reaches precision ${flags.target} on these ${result.cases} case(s) (figures in ${shownPath(io.cwd, join(store, "tune.json"))}); lower --target or add cases`,
      1,
    );
  if (!flags.json)
    io.stdout.write(`${shownPath(io.cwd, out)}: block_on [${result.chosen.block_on.join(", ")}]\n`);
}

/** Adds `eval build` and `eval run` to the `gate` command (registered before this). */
export function registerGateEval(program: Command, io: CliIO): void {
  const gate = program.commands.find((c) => c.name() === "gate");
  if (!gate) throw new Error("registerGateEval: register the gate command first");
  // The gate's own flags (--policy, --json) are read before `eval` only: after it, they are eval's.
  // Commander hands a subcommand's flags to its parent unless every level reads options positionally;
  // the program has no options of its own after a command (only --version and --help before one).
  program.enablePositionalOptions();
  gate.enablePositionalOptions();
  const evaluation = gate
    .command("eval")
    .description("measure the gate on labelled changes: what it would have caught and wrongly blocked");
  evaluation
    .command("build")
    .description(
      "write a labelled set (JSON Lines) from a repository's history: bug-fixing commits blamed on the changes that introduced the lines they fixed (SZZ), and as many good changes",
    )
    .option("--repo <dir>", "the git repository", ".")
    .option("--out <file>", "the set file to write", "gate-eval.jsonl")
    .option("--rev <rev>", "the history's tip", "HEAD")
    .option("--since <date>", "only commits since this date (git's syntax: 2024-01-01, '6 months ago')")
    .option("--max <n>", "at most this many bad cases (and as many good)", parsePositiveInt)
    .option(
      "--pattern <regex...>",
      "fix words a bug-fixing commit's subject matches (case-insensitive; replaces the defaults: fix/fixes/fixed/fixing, bug); conventional types other than fix (feat:, docs:, chore:, ...) never count",
    )
    .option(
      "--fix-in-body",
      "also look for fix words in a commit's body (off: a squashed pull request's body lists every commit's subject)",
    )
    .option(
      "--issues <jsonl>",
      'the tracker\'s issues, one a line ({"number": 12, "labels": ["bug"]}): a commit referring to an issue labelled bug is a fix',
    )
    .option(
      "--json",
      "print the file, the counts, the notes (commits skipped and why) and the commits taken for fixes (and why) as JSON",
    )
    .action((flags: BuildFlags) => buildAction(io, flags));
  evaluation
    .command("run")
    .description(
      "run the gate on every case of a set (resumable: a finished case is never run again) and write eval.md, eval.html and eval.json: the confusion matrix, precision, recall, false-positive and undecided rates with 95% intervals, per severity threshold",
    )
    .argument("<set>", "the labelled set (JSON Lines)")
    .requiredOption("--policy <file>", "the gate policy every case is reviewed with (its seats, budget)")
    .option("--out <dir>", "where results go (default: the set's path without .jsonl, plus .eval)")
    .option("--limit <n>", "only the first n cases", parsePositiveInt)
    .option("--parallel <n>", "cases reviewed at once in this process (without --queue)", parsePositiveInt, 2)
    .option(
      "--queue <redis-url>",
      "run the reviews on the queue's workers (`debate worker --queue`) instead of in this process: resumable, each answered seat call asked once",
    )
    .option("--block-on <severities...>", "severity thresholds to report, each P1 or a list like P1,P2", [
      "P1",
      "P1,P2",
    ])
    .option("--json", "print the figures as JSON")
    .action((set: string, flags: RunFlags) => runAction(io, set, flags));
  evaluation
    .command("tune")
    .description(
      "from an evaluation's results (no seat asked), write the policy whose blocking severities reach a target precision with the best recall, with the figures it rests on and their 95% intervals",
    )
    .argument("<set>", "the labelled set the evaluation ran")
    .option(
      "--out <dir>",
      "the evaluation's results folder (default: the set's path without .jsonl, plus .eval)",
    )
    .option("--target <precision>", "the precision the policy must reach (0 to 1)", parseTarget, 0.6)
    .option("--write <file>", "where the tuned policy goes (default: <results>/tuned-policy.yml)")
    .option("--json", "print every threshold's figures and the choice as JSON")
    .action((set: string, flags: TuneFlags) => tuneAction(io, set, flags));
}
