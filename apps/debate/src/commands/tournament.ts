import { relative, resolve } from "node:path";
import type { TournamentFrontmatter } from "@debatekit/schema";
import type { TournamentEvent, TournamentPlan } from "@debatekit/tournament";
import { type Command, InvalidArgumentError, Option } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt } from "../options.js";
import { type CliIO, isInteractive } from "../output.js";
import { abortOnSignals, cancelledExitCode } from "../stop-signals.js";
import { declareInFull, declareLater } from "./lazy.js";

// The tournament engine (its queue and Redis client among it) loads when a command runs.
const engine = () => import("@debatekit/tournament");
const actions = () => import("../actions/tournament.js");

const shown = (cwd: string, path: string) => {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") ? rel : path;
};

/** `--limit claude=2/30`: at most 2 calls in flight and 30 per minute for that adapter (either part may be empty). */
export function collectLimit(value: string, previous: NonNullable<TournamentFrontmatter["limits"]> = {}) {
  const m = /^([a-z][a-z0-9-]*)=(\d*)(?:\/(\d*))?$/.exec(value.trim());
  if (!m || (!m[2] && !m[3])) {
    throw new InvalidArgumentError(
      `expected adapter=IN_FLIGHT[/PER_MINUTE], e.g. claude=2/30 or gemini=/60, got ${JSON.stringify(value)}`,
    );
  }
  return {
    ...previous,
    [m[1]!]: {
      ...(m[2] ? { concurrency: Number(m[2]) } : {}),
      ...(m[3] ? { per_minute: Number(m[3]) } : {}),
    },
  };
}

/** `--price claude=3/15`: dollars per million input / output tokens, by player name or adapter. */
function collectPrice(value: string, previous: NonNullable<TournamentFrontmatter["prices"]> = {}) {
  const m = /^([^=\s]+)=([0-9.]+)\/([0-9.]+)$/.exec(value.trim());
  if (!m || Number.isNaN(Number(m[2])) || Number.isNaN(Number(m[3]))) {
    throw new InvalidArgumentError(
      `expected name=INPUT/OUTPUT dollars per million tokens, e.g. claude=3/15, got ${JSON.stringify(value)}`,
    );
  }
  return { ...previous, [m[1]!]: { input: Number(m[2]), output: Number(m[3]) } };
}

function parseMoney(value: string): number {
  const n = Number(value.replace(/^\$/, ""));
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(
      `expected an amount in US dollars, e.g. 5 or 0.50, got ${JSON.stringify(value)}`,
    );
  return n;
}

const duration = (ms: number) =>
  ms >= 60_000
    ? `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`
    : `${(ms / 1000).toFixed(1)}s`;

function formatPlan(plan: TournamentPlan): string {
  const lines = [
    `${plan.debates} debates (${plan.remaining} to run), ${plan.calls} seat calls to make`,
    "",
    "seat                         calls   input tokens*  output tokens*  cost*",
  ];
  for (const l of plan.perEntrant) {
    lines.push(
      `${l.name.padEnd(28)} ${String(l.calls).padStart(5)}  ${String(l.inputTokens).padStart(13)}  ${String(l.outputTokens).padStart(14)}  ${l.costUsd === undefined ? "no price" : `$${l.costUsd.toFixed(4)}`}`,
    );
  }
  const t = plan.total;
  lines.push(
    `${"total".padEnd(28)} ${String(t.calls).padStart(5)}  ${String(t.inputTokens).padStart(13)}  ${String(t.outputTokens).padStart(14)}  ${t.costUsd === undefined ? "no price" : `$${t.costUsd.toFixed(4)}${t.unpriced.length ? ` + unpriced ${t.unpriced.join(", ")}` : ""}`}`,
    "",
    `* ${plan.method}`,
  );
  return `${lines.join("\n")}\n`;
}

/** Progress of a tournament run on stderr: one live line on a TTY, plain lines otherwise. */
async function tournamentProgress(io: CliIO, json: boolean): Promise<(event: TournamentEvent) => void> {
  const [{ escapeTerminal }, { palette }, { describeSpend }] = await Promise.all([
    import("@debatekit/report/escape"),
    import("../progress.js"),
    engine(),
  ]);
  const live = isInteractive(io) && !json;
  const c = palette(io);
  return (event) => {
    if (json) {
      io.stdout.write(`${JSON.stringify(event)}\n`);
      return;
    }
    if (event.type === "started") {
      io.stderr.write(
        `${event.total} debates: ${event.done} done, ${event.failed} failed, ${event.todo} to run\n`,
      );
    } else if (event.type === "debate_finished" && event.status !== "done") {
      if (live) io.stderr.write("\r\u001b[K");
      const mark = event.status === "failed" ? c.red("failed") : c.yellow("stopped");
      io.stderr.write(
        `${mark} ${event.id}${event.reason ? `: ${escapeTerminal(event.reason.split("\n")[0]!)}` : ""}\n`,
      );
    } else if (event.type === "progress") {
      const line = `${event.done + event.failed}/${event.total} ended (${event.done} done, ${event.failed} failed), ${event.running} running, spend ${describeSpend(event)}${event.etaMs !== undefined ? `, ETA ${duration(event.etaMs)}` : ""}`;
      io.stderr.write(live ? `\r\u001b[K${line}` : `${line}\n`);
    } else if (event.type === "rate_limited") {
      if (live) io.stderr.write("\r\u001b[K");
      io.stderr.write(
        `${c.yellow("paused")} ${event.id}: rate limited, retrying in ${Number((event.retryInMs / 1000).toFixed(1))}s (${escapeTerminal(event.error.split("\n")[0]!)})\n`,
      );
    } else if (event.type === "budget_stop") {
      if (live) io.stderr.write("\r\u001b[K");
      io.stderr.write(
        `${c.yellow("budget")}: not starting ${event.id} (estimate $${event.estimateUsd.toFixed(4)}; $${event.committedUsd.toFixed(4)} spent or in flight; --max-cost $${event.maxCostUsd})\n`,
      );
    } else if (event.type === "finished" && live) io.stderr.write("\n");
  };
}

/**
 * The rest of `debate tournament new`: its options, with the formats that pair two sides as the
 * --format choices and one length flag per distinct flag of theirs, and its action.
 */
function declareNew(
  command: Command,
  io: CliIO,
  options: typeof import("../actions/format-options.js"),
): void {
  const offered = options.tournamentFormats();
  const names = offered.map((f) => f.name);
  const lengths = options.lengthFlags(offered);
  command
    .requiredOption(
      "--motions <file>",
      "motions: .txt (one per line) or .jsonl ({motion, answer?: for|against})",
    )
    .requiredOption(
      "--seats <list>",
      "players, comma-separated: adapter[:model][@base_url], e.g. claude,codex,gemini:gemini-2.5-pro",
    )
    .option(
      "--judges <list>",
      "judges, comma-separated; several (1-5) sit as a panel in every match (its majority decides)",
      "codex",
    )
    .option("--swap", "a judge panel also reads every debate with the sides in the other order")
    .option("--judges-in-turn", "several --judges take the matches in turn instead of sitting as a panel")
    .addOption(
      new Option("--format <name>", "the debate format")
        .choices(names)
        .default(options.defaultTournamentFormat()),
    )
    .addOption(
      new Option("--pairing <how>", "who meets whom").choices(["round-robin"]).default("round-robin"),
    )
    .addOption(
      new Option("--sides <which>", "both: every pair twice per motion, sides swapped")
        .choices(["both", "one"])
        .default("both"),
    );
  for (const [flag, formats] of lengths)
    command.option(
      `--${flag} <n>`,
      formats
        .map((f) => {
          const { min, max } = f.newOptions.length;
          // 1000 is every count's own bound (parsePositiveInt): only a tighter range is worth saying.
          return `${f.name}: ${f.unit.many} per debate${max < 1000 ? ` (${min}-${max})` : ""}`;
        })
        .join("; "),
      parsePositiveInt,
    );
  command
    .option(
      "--replay <dir>",
      "replay seats: a folder with one <match id>.jsonl per match, copied into each debate",
    )
    .option("--seed <n>", "seed of the ratings' bootstrap", (v) => Number.parseInt(v, 10), 1)
    .option(
      "--limit <adapter=n/m>",
      "calls in flight / per minute for an adapter, across the tournament (repeatable)",
      collectLimit,
    )
    .option(
      "--price <name=in/out>",
      "dollars per million input/output tokens, by player name or adapter (repeatable)",
      collectPrice,
    )
    .option("--json", "print {dir, debates} as JSON")
    .action(async (dirArg: string, opts: Record<string, unknown>) => {
      const { newTournament } = await actions();
      const given = [...lengths.keys()].filter((flag) => opts[camel(flag)] !== undefined);
      const made = await newTournament(io, {
        dir: dirArg,
        motions: String(opts.motions),
        seats: String(opts.seats),
        judges: String(opts.judges),
        ...(opts.swap ? { swap: true } : {}),
        ...(opts.judgesInTurn ? { judgesInTurn: true } : {}),
        format: String(opts.format),
        sides: opts.sides as "both" | "one",
        lengths: Object.fromEntries(given.map((flag) => [flag, opts[camel(flag)] as number])),
        seed: opts.seed as number,
        ...(opts.limit ? { limits: opts.limit as TournamentFrontmatter["limits"] } : {}),
        ...(opts.price ? { prices: opts.price as TournamentFrontmatter["prices"] } : {}),
        ...(opts.replay ? { replay: String(opts.replay) } : {}),
      });
      for (const w of made.warnings) io.stderr.write(`warning: ${w}\n`);
      if (opts.json) io.stdout.write(`${JSON.stringify({ dir: made.dir, debates: made.debates })}\n`);
      else
        io.stdout.write(
          `created ${shown(io.cwd, made.dir)}/tournament.md and ${made.debates} debate folders\nnext: debate tournament plan ${shown(io.cwd, made.dir)}\n`,
        );
    });
}

/** Commander's key of a flag's value: `max-rounds` -> `maxRounds`. */
const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** `--redis-timeout 2000`: whole milliseconds, at least 100. */
function parseMilliseconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100)
    throw new Error(`expected milliseconds (at least 100), got ${JSON.stringify(value)}`);
  return n;
}

/** How long `run --queue` may take to close its queues after a stop signal before it exits anyway. */
const QUEUE_STOP_MS = 5_000;

/** `debate tournament new|plan|run|status|report`. */
export function registerTournament(program: Command, io: CliIO): void {
  const tournament = program
    .command("tournament")
    .description("many debates as one folder: every pairing of seats on every motion, rated with intervals")
    .addHelpText(
      "after",
      `
Examples (offline: recorded players; with your CLIs, e.g. --seats claude,codex,gemini --judges opencode):
  debate example tournament-replay tr
  debate tournament new t/ --motions tr/motions.jsonl --seats replay:alice,replay:bob,replay:carol --judges replay --format crossfire --rounds 1 --replay tr/recordings
  debate tournament plan t/
  debate tournament run t/ --concurrency 4
  debate tournament status t/
  debate tournament report t/`,
    );

  const create = tournament
    .command("new")
    .description("create a tournament folder: tournament.md and one debate folder per match under debates/")
    .argument("<dir>", "the tournament folder (must not exist, or be empty)");
  // Its --format choices and length flags come from the formats (core): declared once it is used.
  declareLater(create, async () => declareNew(create, io, await import("../actions/format-options.js")));
  tournament.hook("preSubcommand", (_, sub) => declareInFull(tournament, [sub.name()]));

  tournament
    .command("plan")
    .description("the debates, seat calls, estimated tokens and cost still to spend, per seat and in total")
    .argument("<dir>", "the tournament folder")
    .option("--answer-tokens <n>", "tokens assumed per answer", parsePositiveInt, 600)
    .option("--json", "print the plan as JSON")
    .action(async (dirArg: string, opts: { answerTokens: number; json?: boolean }) => {
      const { tournamentPlan } = await actions();
      const plan = await tournamentPlan(io, { dir: dirArg, answerTokens: opts.answerTokens });
      io.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
    });

  tournament
    .command("run")
    .description("run or resume every debate of the tournament in this process")
    .argument("<dir>", "the tournament folder")
    .option("--concurrency <n>", "debates at once", parsePositiveInt, 4)
    .option(
      "--max-cost <usd>",
      "do not start a debate whose estimated cost would take the spend past this",
      parseMoney,
    )
    .option("--retry-failed", "run the debates recorded as failed again")
    .option(
      "--queue <redis-url>",
      "enqueue the debates on Redis for `debate worker`s (any machine) and collect their folders here (a Redis that cannot be used, or stops answering, ends the run within --redis-timeout)",
    )
    .option(
      "--redis-timeout <ms>",
      "with --queue: how long Redis may take to connect, or to answer once connected",
      parseMilliseconds,
      10_000,
    )
    .option("--json", "print events as JSON lines")
    .action(
      async (
        dirArg: string,
        opts: {
          concurrency: number;
          maxCost?: number;
          retryFailed?: boolean;
          queue?: string;
          redisTimeout: number;
          json?: boolean;
        },
      ) => {
        const { runTournamentAction } = await actions();
        const dir = resolve(io.cwd, dirArg);
        const stop = abortOnSignals(
          io,
          opts.queue
            ? "stopping the wait (the workers go on); `debate tournament run --queue` collects"
            : "stopping the running debates; `debate tournament run` resumes",
          // Only the wait stops in queue mode: nothing in this process needs more than seconds.
          opts.queue ? { exitAfterMs: QUEUE_STOP_MS } : {},
        );
        try {
          if (opts.queue) {
            const { queueUrlWarnings } = await engine();
            for (const warning of queueUrlWarnings(opts.queue)) io.stderr.write(`warning: ${warning}\n`);
          }
          const summary = await runTournamentAction(
            { cwd: io.cwd, env: io.env, signal: stop.signal },
            {
              dir,
              concurrency: opts.concurrency,
              onEvent: await tournamentProgress(io, Boolean(opts.json)),
              ...(opts.retryFailed ? { retryFailed: true } : {}),
              ...(opts.maxCost !== undefined ? { maxCostUsd: opts.maxCost } : {}),
              ...(opts.queue ? { queue: opts.queue, redisTimeoutMs: opts.redisTimeout } : {}),
            },
          );
          if (!opts.json) {
            io.stdout.write(
              `${summary.status}: ${summary.done} done, ${summary.failed} failed, ${summary.remaining} not finished of ${summary.total} (${summary.ran} run now)${summary.reason ? `; ${summary.reason}` : ""}\n`,
            );
            if (summary.status === "finished")
              io.stdout.write(`next: debate tournament report ${shown(io.cwd, dir)}\n`);
          }
          if (stop.signal.aborted) throw new ExitError("stopped; run again to resume", cancelledExitCode);
          // A failed debate is a failed seat (exit code 1), as for `debate run`: the table says why.
          if (summary.failed > 0)
            throw new ExitError(
              `${summary.failed} debate(s) failed: \`debate tournament status ${shown(io.cwd, dir)}\` shows why; fix the seat, then \`debate tournament run ${shown(io.cwd, dir)} --retry-failed\``,
              1,
            );
        } finally {
          stop.dispose();
        }
      },
    );

  tournament
    .command("status")
    .description("progress: debates done, failed, running, not started; spend so far")
    .argument("<dir>", "the tournament folder")
    .option("--json", "print the status as JSON")
    .action(async (dirArg: string, opts: { json?: boolean }) => {
      const [{ tournamentStatus }, { describeSpend }] = await Promise.all([actions(), engine()]);
      const status = await tournamentStatus(io, { dir: dirArg });
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        return;
      }
      io.stdout.write(
        `${status.tournament_id}: ${status.status}; ${status.done} done, ${status.failed} failed, ${status.running} started, ${status.pending} not started of ${status.total}; ${status.calls} seat calls, spend ${describeSpend(status)}\n`,
      );
      for (const r of status.debates) {
        io.stdout.write(
          `  ${r.id.padEnd(50)} ${r.status.padEnd(8)} ${"winner" in r ? r.winner : ""}${r.error ? `${r.error.code}: ${r.error.message.split("\n")[0]}` : ""}\n`,
        );
      }
    });

  tournament
    .command("report")
    .description("write leaderboard.md and a self-contained leaderboard.html (and each debate's report)")
    .argument("<dir>", "the tournament folder")
    .option("--json", "print the leaderboard's figures as JSON")
    .action(async (dirArg: string, opts: { json?: boolean }) => {
      const { reportTournament } = await actions();
      const { dir, leaderboard, files } = await reportTournament(io, { dir: dirArg });
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ dir, files, leaderboard }, null, 2)}\n`);
        return;
      }
      io.stdout.write(
        `wrote ${shown(io.cwd, dir)}/leaderboard.md and leaderboard.html (${files.length - 2} debate report files)\n`,
      );
      for (const [i, p] of leaderboard.ratings.entries()) {
        io.stdout.write(
          `${String(i + 1).padStart(2)}. ${p.name.padEnd(28)} ${Math.round(p.rating)} [${Math.round(p.low)}, ${Math.round(p.high)}] (${p.games} debates)\n`,
        );
      }
    });
}
