import { relative } from "node:path";
import { escapeTerminal } from "@debatekit/report/escape";
import type { CliIO } from "../output.js";
import { isInteractive } from "../output.js";
import { palette, phaseWord } from "../progress.js";
import { formatSkillProblem } from "../skill-problems.js";
import type { WatchEvent } from "./events.js";
import type { WatchedDebate } from "./watcher.js";

/** The line a human sees for an event, or undefined for events that are no change of phase or status. */
export function formatWatchLine(event: WatchEvent, name: (dir: string) => string): string | undefined {
  switch (event.type) {
    case "watch_started":
      return `watching ${event.dirs.map(name).join(", ")}`;
    case "ready":
      return `found ${event.debates} debate${event.debates === 1 ? "" : "s"}`;
    case "debate_added":
      return `${name(event.dir)}: new debate`;
    case "debate_removed":
      return `${name(event.dir)}: removed, no longer watched`;
    case "step_committed":
      return `${name(event.dir)}: ${event.unit} ${event.from.exchange} ${phaseWord(event.from.phase)} committed -> ${event.unit} ${event.exchange} ${event.phase}`;
    case "run_finished": {
      const where = `${event.unit} ${event.exchange} ${event.phase}`;
      let what: string;
      if (event.status === "waiting" && event.pending?.length) {
        what = `waiting: ${event.pending.map((p) => p.message).join("; ")}`;
      } else if (event.status === "failed" || event.status === "cancelled") {
        const e = event.error;
        const at = e?.file ? ` (${e.file}${e.field ? `, field ${e.field}` : ""})` : "";
        what = `${event.status}: ${e?.message ?? event.reason ?? ""}${at}`;
      } else {
        what = `${event.status}: ${event.reason ?? event.error?.message ?? ""}`;
      }
      return `${name(event.dir)}: ${what} [${where}]`;
    }
    case "answer_rejected":
      return `${name(event.dir)}: ${event.unit} ${event.exchange} · the ${event.role}'s answer was rejected, asking again (attempt ${event.attempt}): ${event.errors.join("; ")}${event.retryPrompt ? `; the full list is in ${event.retryPrompt}` : ""}`;
    case "invalid":
      return `${name(event.dir)}: ${event.file}${event.field ? ` field ${event.field}` : ""} is invalid (${event.code}): ${event.message}; waiting for a fix`;
    case "recovered":
      return `${name(event.dir)}: readable again, resuming`;
    case "skill_problem":
      return `${name(event.dir)}: skills: ${formatSkillProblem(event)}`;
    case "locked":
      return `${name(event.dir)}: ${event.message}; trying again in ${event.retryInMs} ms`;
    case "run_error":
      return `${name(event.dir)}: run error ${event.code}: ${event.message}`;
    case "watch_error":
      return `watch error: ${event.message}`;
    case "stopped":
      return "stopped; every debate resumes with `debate watch` or `debate run`";
    default:
      return undefined;
  }
}

/** One status line for a TTY: how many debates are running, waiting, done, broken. */
export function formatLiveStatus(debates: WatchedDebate[]): string {
  const count = (test: (d: WatchedDebate) => boolean) => debates.filter(test).length;
  const parts = [
    `${debates.length} watched`,
    `${count((d) => d.running)} running`,
    `${count((d) => !d.running && d.last?.status === "waiting")} waiting`,
    `${count((d) => !d.running && d.last?.status === "done")} done`,
  ];
  // Stopped for a reason someone must look at: said apart, only when there are any.
  const paused = count((d) => !d.running && d.last?.status === "paused");
  if (paused > 0) parts.push(`${paused} paused`);
  const failed = count((d) => !d.running && (d.last?.status === "failed" || d.last?.status === "cancelled"));
  if (failed > 0) parts.push(`${failed} failed`);
  const invalid = count((d) => d.invalid !== undefined);
  if (invalid > 0) parts.push(`${invalid} invalid`);
  return parts.join(" · ");
}

/**
 * Prints watch events: with `json`, one JSON object per line on stdout (NDJSON); else one line per
 * phase or status change on stdout, plus a live status line on stderr when it is a TTY.
 */
export function createWatchPrinter(
  io: CliIO,
  options: { json?: boolean; debates?: () => WatchedDebate[] },
): { onEvent: (event: WatchEvent) => void; stop: () => void } {
  if (options.json) {
    return { onEvent: (event) => io.stdout.write(`${JSON.stringify(event)}\n`), stop: () => undefined };
  }
  const c = palette(io);
  const live = isInteractive(io) && options.debates !== undefined;
  const lastLine = new Map<string, string>();
  const skillLines = new Map<string, Set<string>>();
  const name = (dir: string) => relative(io.cwd, dir) || ".";
  const clock = (at: string) => c.dim(at.slice(11, 19));
  const render = () => {
    if (live) io.stderr.write(`\r\u001b[K${c.dim(formatLiveStatus(options.debates!()))}`);
  };
  const ticker = live ? setInterval(render, 500) : undefined;
  ticker?.unref();
  return {
    onEvent(event) {
      // A model's (or a folder's) control characters are shown escaped, as in `run` and `log`.
      const plain = formatWatchLine(event, name);
      let line = plain === undefined ? undefined : escapeTerminal(plain);
      // A run that ends where the last one did, a lock still held, a file still broken: no news,
      // print it once.
      if (line && (event.type === "run_finished" || event.type === "locked" || event.type === "invalid")) {
        if (lastLine.get(event.dir) === line) line = undefined;
        else lastLine.set(event.dir, line);
      } else if (line && event.type === "skill_problem") {
        // Every run of a debate reports its skill problems again: print each line once per debate.
        const seen = skillLines.get(event.dir) ?? new Set<string>();
        skillLines.set(event.dir, seen);
        if (seen.has(line)) line = undefined;
        else seen.add(line);
      } else if (line && "dir" in event) lastLine.delete(event.dir);
      if (!line) return render();
      if (live) io.stderr.write("\r\u001b[K");
      const colored =
        event.type === "invalid" || event.type === "run_error" || event.type === "watch_error"
          ? c.red(line)
          : event.type === "answer_rejected"
            ? c.yellow(line)
            : event.type === "step_committed"
              ? c.green(line)
              : event.type === "skill_problem"
                ? c.yellow(line)
                : line;
      io.stdout.write(`${clock(event.at)} ${colored}\n`);
      render();
    },
    stop() {
      if (ticker) clearInterval(ticker);
      if (live) io.stderr.write("\r\u001b[K");
    },
  };
}
