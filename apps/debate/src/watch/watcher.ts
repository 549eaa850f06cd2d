import { readFileSync, type Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { DebatekitError } from "@debatekit/core";
import { type RunOptions, runDebate } from "@debatekit/runner";
import { type FSWatcher, watch } from "chokidar";
import type { PendingSeat, RunReason, WatchEvent, WatchEventInput } from "./events.js";
import { classifyPath, debateFile, isIgnoredPath } from "./paths.js";
import { createRunQueue } from "./schedule.js";

/** Options of watchDebates. */
export interface WatchOptions {
  /** Receives every WatchEvent (the CLI prints them). */
  onEvent?: (event: WatchEvent) => void;
  /** Quiet time per debate after its last change before it runs (default 50 ms). */
  debounceMs?: number;
  /** A changed file must keep its size this long before it counts (chokidar awaitWriteFinish; default 100 ms). */
  writeFinishMs?: number;
  /** At most this many debates run at the same time (default 4). */
  concurrency?: number;
  /** When another process holds a debate's lock, try again after this long (default 1000 ms). */
  lockRetryMs?: number;
  /** How deep under each given folder to look for debates (default 8). */
  depth?: number;
  /** Passed to every run (adapter overrides, environment, working directory of the seats...). */
  run?: Pick<RunOptions, "adapters" | "env" | "cwd" | "skillRoots" | "now">;
  /** Clock for the events' `at` (default: the system clock). */
  now?: () => Date;
}

/** What the watcher knows about one debate. */
export interface WatchedDebate {
  dir: string;
  running: boolean;
  /** How its last run ended (absent before the first run ends). */
  last?: { status: string; exchange: number; phase: string; reason?: string };
  /** Set while debate.md (or another file) does not read; the debate waits for a fix. */
  invalid?: { code: string; file: string; field?: string; message: string };
}

/** A running watcher. */
export interface DebateWatcher {
  /** Resolves once the initial scan is done (every existing debate has been found and queued). */
  ready: Promise<void>;
  /** The debates being watched, sorted by folder. */
  debates(): WatchedDebate[];
  /** Resolves once no debate is running or about to run. */
  idle(): Promise<void>;
  /** Stops: aborts running seats through the runner's signal, waits for the runs, closes the file watcher. */
  close(): Promise<void>;
}

interface Entry {
  dir: string;
  /**
   * debate.md as last seen: the text the runner last committed, or of the last change event. A
   * change event with this exact text is no change (typically the runner's own commit); comparing
   * with the last seen text rather than the last committed one means an edit reverted to the
   * committed text, or a broken file fixed back to it, is still a change.
   */
  lastText?: string;
  last?: WatchedDebate["last"];
  invalid?: WatchedDebate["invalid"];
  lockTimer?: NodeJS.Timeout;
  /** Aborts the run in progress (on stop, or when the folder is deleted). */
  running?: AbortController;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Cuts a message to its first line and ~200 characters, for one-line reports. */
function oneLine(text: string): string {
  const first = text.split("\n")[0] ?? "";
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}

/**
 * Watches the given folders and keeps every debate under them moving: resumes each at start,
 * picks up new debate folders, and runs a debate again when its debate.md is edited or an answer
 * lands in its inbox/. One run per debate at a time; bursts coalesced; its own writes ignored.
 */
export function watchDebates(dirs: readonly string[], options: WatchOptions = {}): DebateWatcher {
  const roots = dirs.map((d) => resolve(d));
  const now = options.now ?? (() => new Date());
  const lockRetryMs = options.lockRetryMs ?? 1000;
  const entries = new Map<string, Entry>();
  // Broken files outside what is normally watched (an argument file, scores.json): watched while
  // they keep their debate invalid, so fixing them wakes it. Absolute path -> debate folder.
  const brokenFiles = new Map<string, string>();
  let stopping = false;
  let isReady = false;

  const emit = (event: WatchEventInput) => {
    options.onEvent?.({ at: now().toISOString(), ...event } as WatchEvent);
  };

  const runOnce = async (dir: string, reasons: RunReason[]): Promise<void> => {
    const entry = entries.get(dir);
    if (!entry || stopping) return;
    emit({ type: "run_started", dir, reasons });
    const pending: PendingSeat[] = [];
    // One plain controller per run, so nothing outlives the run: close() and removeDebate()
    // abort the run in progress through it.
    const abort = new AbortController();
    entry.running = abort;
    // Any event of the runner means the folder read: a debate that was invalid is readable again.
    const markReadable = () => {
      if (!entry.invalid) return;
      unwatchBroken(dir);
      entry.invalid = undefined;
      emit({ type: "recovered", dir });
    };
    try {
      const summary = await runDebate(dir, {
        ...options.run,
        signal: abort.signal,
        command: "debate watch",
        onEvent: (event) => {
          if (event.type !== "error" && event.type !== "waiting") markReadable();
          if (event.type === "step_committed") {
            // Read right after the commit: the runner re-reads debate.md before its next decision,
            // so an edit landing in between is still seen by this run.
            entry.lastText = readText(join(dir, debateFile));
            emit({
              type: "step_committed",
              dir,
              from: event.from,
              exchange: event.exchange,
              phase: event.phase,
            });
          } else if (event.type === "seat_finished" && event.status === "pending") {
            pending.push({ role: event.role, message: event.error ?? "" });
          }
        },
      });
      markReadable();
      entry.last = {
        status: summary.status,
        exchange: summary.exchange,
        phase: summary.phase,
        ...(summary.reason ? { reason: summary.reason } : {}),
      };
      emit({
        type: "run_finished",
        dir,
        status: summary.status,
        exchange: summary.exchange,
        phase: summary.phase,
        committed: summary.committed,
        ...(summary.reason ? { reason: summary.reason } : {}),
        ...(summary.error ? { error: summary.error } : {}),
        ...(pending.length > 0 ? { pending } : {}),
      });
    } catch (error) {
      const e = error as Partial<DebatekitError> & NodeJS.ErrnoException;
      if (e.code === "DEBATE_LOCKED") {
        // Another process advances it; its commit will wake us too, but a run that ends without
        // a commit would not, so try again later.
        emit({ type: "locked", dir, message: oneLine(e.message ?? ""), retryInMs: lockRetryMs });
        if (entry.lockTimer) clearTimeout(entry.lockTimer);
        entry.lockTimer = setTimeout(() => queue.trigger(dir, "lock_retry"), lockRetryMs);
      } else if (error instanceof DebatekitError && e.code !== "DEBATE_FILE_MISSING") {
        // The folder does not read (e.g. a broken edit of debate.md): nothing was written, the
        // files keep their last good state, and the next change to them runs it again.
        entry.invalid = {
          code: error.code,
          file: error.file ?? debateFile,
          ...(error.field ? { field: error.field } : {}),
          // The runner prefixes "<CODE> at `<file>:<field>`: ", which the event already carries.
          message: oneLine(error.message.replace(/^[A-Z_]+ at `[^`]*`: /, "")),
        };
        emit({ type: "invalid", dir, ...entry.invalid });
        watchBroken(dir, entry.invalid.file);
      } else {
        emit({
          type: "run_error",
          dir,
          code: e.code ?? "RUN_FAILED",
          message: oneLine(e.message ?? String(error)),
        });
      }
    } finally {
      if (entry.running === abort) entry.running = undefined;
    }
  };

  const queue = createRunQueue<RunReason>({
    debounceMs: options.debounceMs ?? 50,
    concurrency: options.concurrency ?? 4,
    run: runOnce,
  });

  const watchBroken = (dir: string, file: string) => {
    const path = resolve(dir, file);
    if (!path.startsWith(`${dir}/`) || classifyPath(path).kind !== "other" || brokenFiles.has(path)) return;
    brokenFiles.set(path, dir);
    watcher.add(path);
  };
  const unwatchBroken = (dir: string) => {
    for (const [path, owner] of brokenFiles) {
      if (owner !== dir) continue;
      brokenFiles.delete(path);
      watcher.unwatch(path);
    }
  };

  const addDebate = (dir: string) => {
    if (entries.has(dir)) return false;
    entries.set(dir, { dir });
    emit({ type: "debate_added", dir });
    queue.trigger(dir, isReady ? "added" : "startup");
    return true;
  };

  const removeDebate = (dir: string) => {
    const entry = entries.get(dir);
    if (!entry) return;
    if (entry.lockTimer) clearTimeout(entry.lockTimer);
    entry.running?.abort();
    unwatchBroken(dir);
    entries.delete(dir);
    emit({ type: "debate_removed", dir });
  };

  const onFile = async (path: string) => {
    const brokenOwner = brokenFiles.get(path);
    if (brokenOwner !== undefined) {
      if (entries.has(brokenOwner)) queue.trigger(brokenOwner, `fixed:${relative(brokenOwner, path)}`);
      return;
    }
    const target = classifyPath(path);
    if (target.kind === "other" || stopping) return;
    if (target.kind === "inbox") {
      if (entries.has(target.dir)) queue.trigger(target.dir, `inbox/${target.name}`);
      return;
    }
    if (addDebate(target.dir)) return;
    const entry = entries.get(target.dir)!;
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text !== undefined && text === entry.lastText) return; // e.g. the runner's own commit
    entry.lastText = text;
    queue.trigger(target.dir, "debate.md");
  };

  const onUnlink = (path: string) => {
    const target = classifyPath(path);
    if (target.kind === "debate") removeDebate(target.dir);
  };

  const watcher: FSWatcher = watch(roots, {
    ignored: (path: string, stats?: Stats) => !brokenFiles.has(path) && isIgnoredPath(path, stats),
    depth: options.depth ?? 8,
    awaitWriteFinish: { stabilityThreshold: options.writeFinishMs ?? 100, pollInterval: 20 },
    ignorePermissionErrors: true,
  });
  watcher.on("add", (path) => void onFile(path));
  watcher.on("change", (path) => void onFile(path));
  watcher.on("unlink", onUnlink);
  watcher.on("unlinkDir", (path) => {
    // A deleted folder: chokidar may report only the folder, so drop every debate inside it.
    const gone = resolve(path);
    for (const dir of [...entries.keys()]) {
      if (dir === gone || dir.startsWith(`${gone}/`)) removeDebate(dir);
    }
  });
  watcher.on("error", (error) =>
    emit({ type: "watch_error", message: oneLine(String((error as Error).message ?? error)) }),
  );
  emit({ type: "watch_started", dirs: roots });
  const ready = new Promise<void>((done) =>
    watcher.once("ready", () => {
      isReady = true;
      emit({ type: "ready", debates: entries.size });
      done();
    }),
  );

  return {
    ready,
    debates: () =>
      [...entries.values()]
        .map((e) => ({
          dir: e.dir,
          running: queue.isRunning(e.dir),
          ...(e.last ? { last: e.last } : {}),
          ...(e.invalid ? { invalid: e.invalid } : {}),
        }))
        .sort((a, b) => a.dir.localeCompare(b.dir)),
    idle: () => queue.idle(),
    async close() {
      if (stopping) return;
      stopping = true;
      for (const entry of entries.values()) entry.running?.abort();
      for (const entry of entries.values()) if (entry.lockTimer) clearTimeout(entry.lockTimer);
      await watcher.close();
      await queue.close();
      emit({ type: "stopped" });
    },
  };
}
