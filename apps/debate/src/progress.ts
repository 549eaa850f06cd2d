import { inboxDir, promptsDir, stepStem } from "@debatekit/adapter-manual";
import type { Standing } from "@debatekit/core";
import { escapeTerminal } from "@debatekit/report/escape";
import type { RunEvent, RunSummary } from "@debatekit/runner";
import { type CliIO, isInteractive, shownPath, useColor } from "./output.js";
import { formatSkillProblem } from "./skill-problems.js";

/** A phase as a word: `awaiting_arguments` -> `arguments`, `awaiting_challenger` -> `challenger`. */
export const phaseWord = (phase: string): string => phase.replace(/^awaiting_/, "");

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Colours that vanish without a colour terminal (NO_COLOR, pipes, TERM=dumb). */
export function palette(io: CliIO) {
  const on = useColor(io);
  const wrap = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { green: wrap(32), red: wrap(31), yellow: wrap(33), dim: wrap(2), bold: wrap(1) };
}

/** The word a format counts progress in (its standing's unit); `exchange` before any standing is known. */
function unitWord(progress: Standing["progress"] | undefined): string {
  return progress?.unit ?? "exchange";
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The warning line `debate run` prints for a skill the run skipped (or a duplicate it replaced). */
export function formatSkillProblemLine(problem: Extract<RunEvent, { type: "skill_problem" }>): string {
  return `skills: ${formatSkillProblem(problem)}`;
}

/**
 * Shows a run's progress on stderr: on a TTY one live line (which seats are thinking, for how
 * long), elsewhere one plain line per event. Returns the event handler and a stop function.
 */
export function createProgress(
  io: CliIO,
  start?: Standing,
): { onEvent: (event: RunEvent) => void; stop: () => void } {
  const live = isInteractive(io);
  const c = palette(io);
  const thinking = new Map<string, { label: string; since: number; waitingFor?: string }>();
  // Roles a person answers (manual seats): their retry prompt file is where the full list of problems is.
  const people = new Set<string>();
  // `exchange 2/5`, `round 2/3`: in the format's unit, with its total once the standing gives them.
  let progress = start?.progress;
  const at = (exchange: number) =>
    `${unitWord(progress)} ${exchange}${progress?.total !== undefined ? `/${progress.total}` : ""}`;
  let lastStanding = start ? standingLine(start) : undefined;
  let frame = 0;
  let ticker: NodeJS.Timeout | undefined;
  const out = (line: string) => io.stderr.write(`${line}\n`);
  const clear = () => live && io.stderr.write("\r\u001b[K");
  const render = () => {
    if (thinking.size === 0) return clear();
    const now = Date.now();
    const parts = [...thinking.values()].map((t) =>
      t.waitingFor
        ? `${t.label} waiting for ${t.waitingFor} ${seconds(now - t.since)}`
        : `${t.label} thinking ${seconds(now - t.since)}`,
    );
    io.stderr.write(`\r\u001b[K${c.yellow(frames[frame++ % frames.length]!)} ${parts.join(" · ")}`);
  };
  const print = (line: string) => {
    clear();
    out(line);
    if (live) render();
  };
  if (live) {
    ticker = setInterval(render, 100);
    ticker.unref();
  }

  const onEvent = (event: RunEvent) => {
    switch (event.type) {
      case "seat_started": {
        const label = `${event.role} (${event.adapter})`;
        // A manual seat is not thinking: it waits for a person's answer file.
        const waitingFor =
          event.adapter === "manual" ? `${inboxDir}/${stepStem({ ...event })}.md` : undefined;
        thinking.set(event.role, { label, since: Date.now(), ...(waitingFor ? { waitingFor } : {}) });
        if (waitingFor) people.add(event.role);
        if (!live)
          out(
            `${at(event.exchange)} · ${label} ${waitingFor ? `waiting for ${waitingFor}` : "thinking"} (attempt ${event.attempt})`,
          );
        else render();
        break;
      }
      case "seat_finished": {
        thinking.delete(event.role);
        if (event.status === "pending") {
          print(
            c.yellow(
              `${at(event.exchange)} · ${event.role} (${event.adapter}) ${escapeTerminal(event.error ?? "waiting")}`,
            ),
          );
          break;
        }
        const status = event.status === "ok" ? c.green("ok") : c.red(event.status);
        const how = event.reused ? "reused from the journal" : seconds(event.durationMs);
        print(
          `${at(event.exchange)} · ${event.role} (${event.adapter}) ${status} · ${how}${event.error ? ` · ${escapeTerminal(event.error)}` : ""}`,
        );
        if (event.toolCalls?.length)
          print(
            c.yellow(
              `${at(event.exchange)} · ${event.role}: its model asked for ${escapeTerminal(event.toolCalls.join(", "))}; refused (seats cannot act on the machine)`,
            ),
          );
        break;
      }
      case "retry": {
        // Every problem at once, so a person fixes them all in one go; a person's retry prompt holds the list too.
        const count = event.errors.length;
        const where = people.has(event.role)
          ? `; the full list is in ${promptsDir}/${stepStem({ ...event })}.md`
          : "";
        print(
          `${at(event.exchange)} · ${event.role}: ${c.yellow("answer rejected")}, asking again (attempt ${event.attempt}): ${count} problem${count === 1 ? "" : "s"}${where}`,
        );
        for (const error of event.errors) print(`  - ${escapeTerminal(error)}`);
        break;
      }
      case "step_committed": {
        if (event.standing) progress = event.standing.progress;
        print(c.dim(`committed ${at(event.from.exchange)} ${phaseWord(event.from.phase)}`));
        // The standing after each step that moved it (a judgment, a verdict).
        const line = event.standing ? standingLine(event.standing) : undefined;
        if (line && line !== lastStanding) print(c.bold(`standing: ${line}`));
        lastStanding = line ?? lastStanding;
        break;
      }
      case "waiting":
        print(c.yellow(escapeTerminal(event.message)));
        break;
      case "skill_problem":
        print(c.yellow(formatSkillProblemLine(event)));
        break;
      default:
        break;
    }
  };
  return {
    onEvent,
    stop: () => {
      if (ticker) clearInterval(ticker);
      clear();
    },
  };
}

/** The standing in one line: `proposition +0.20 · opposition -0.35`, or the format's headline. */
export function standingLine(standing: Standing): string | undefined {
  if (standing.scores) {
    const signed = (n: number) => {
      const v = Math.round(n * 100) / 100;
      return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
    };
    return `proposition ${signed(standing.scores.proposition)} · opposition ${signed(standing.scores.opposition)}`;
  }
  return standing.headline;
}

/** Formats a side's cumulative score: "+0.20 over 7 arguments". */
export function formatSideScore(score: { total: number; count: number }): string {
  const total = Math.round(score.total * 100) / 100;
  return `${total > 0 ? "+" : ""}${total.toFixed(2)} over ${score.count} argument${score.count === 1 ? "" : "s"}`;
}

/** The closing lines of `debate run`: status, scores, where the files are. */
export function formatSummary(io: CliIO, summary: RunSummary, dir: string): string {
  const c = palette(io);
  const { proposition, opposition } = summary.cumulative;
  const lines: string[] = [];
  // The format's phase: a finished debate reads `complete`, never the phase its machine rests in.
  const where = `${unitWord(summary.standing?.progress)} ${summary.exchange}, ${summary.standing?.phase ?? summary.phase}`;
  switch (summary.status) {
    case "done":
      lines.push(`${c.green("done")}: ${escapeTerminal(summary.reason ?? "complete")} (${where})`);
      break;
    case "waiting":
    case "paused":
      lines.push(
        `${c.yellow(summary.status)}: ${escapeTerminal(summary.reason ?? summary.error?.message ?? "")} (${where})`,
      );
      break;
    default:
      lines.push(
        `${c.red(summary.status)}: ${escapeTerminal(summary.error?.message ?? summary.reason ?? "")} (${where})`,
      );
  }
  if (summary.outcome) lines.push(c.red(`outcome: ${summary.outcome}`));
  // A result resting on less than configured says so, with the real error (docs/architecture.md#honest-degradation).
  // (A seat that failed for good is already the line above.)
  for (const d of (summary.degraded ?? []).filter(
    (d) => summary.status !== "failed" || d.cause !== "seat_failed",
  ))
    lines.push(
      c.yellow(escapeTerminal(`degraded (${d.cause}): ${d.message}${d.error ? `: ${d.error}` : ""}`)),
    );
  // A format that does not score (crossfire) shows its own standing instead of scores.
  if (summary.standing && !summary.standing.scores) {
    if (summary.standing.headline) lines.push(c.bold(escapeTerminal(summary.standing.headline)));
    lines.push(`files: ${shownPath(io.cwd, dir)}`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(`proposition ${formatSideScore(proposition)}`);
  lines.push(`opposition  ${formatSideScore(opposition)}`);
  if (summary.status === "done" && proposition.count + opposition.count > 0) {
    const lead = proposition.total - opposition.total;
    lines.push(
      Math.abs(lead) < 0.005
        ? "the sides are level"
        : `${c.bold(lead > 0 ? "proposition" : "opposition")} leads by ${Math.abs(lead).toFixed(2)}`,
    );
  }
  lines.push(`files: ${shownPath(io.cwd, dir)}`);
  return `${lines.join("\n")}\n`;
}
