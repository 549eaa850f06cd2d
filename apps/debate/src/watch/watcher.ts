import type { Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { promptsDir, stepStem } from "@debatekit/adapter-manual";
import { clipText, DEFAULT_FORMAT_NAME, DebatekitError, findFormat, formatOf } from "@debatekit/core";
import { splitFrontmatter } from "@debatekit/files";
import { type RunOptions, runDebate } from "@debatekit/runner";
import { type FSWatcher, watch } from "chokidar";
import type { PendingSeat, RunReason, WatchEvent, WatchEventInput } from "./events.js";
import {
  debateFingerprint,
  debateFingerprintSync,
  type Fingerprint,
  inboxFingerprint,
} from "./fingerprint.js";
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
  /**
   * Every this many ms, compare each idle debate's debate.md and inbox/ with what the watcher last
   * saw and run it when they differ: a safety net for a change no file event reported (default
   * 2000; 0 turns it off).
   */
  rescanMs?: number;
  /** How deep under each given folder to look for debates (default 8). */
  depth?: number;
  /** Passed to every run (adapter overrides, environment, working directory of the seats...). */
  run?: Pick<RunOptions, "adapters" | "env" | "cwd" | "skillRoots" | "extraSkillRoots" | "now">;
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
   * debate.md's fingerprint as last seen: the one the runner's last commit left, or the one a
   * change event last found. A change event that finds this same fingerprint is no change
   * (typically the runner's own commit). A fingerprint is the file's inode, size and times, not
   * its text, so an edit that puts back the committed text is still a change, and two change
   * events handled out of order can at worst start one run too many, never hide an edit.
   */
  seenDebate?: Fingerprint;
  /** inbox/'s fingerprint as last seen (when the debate was added, or after an inbox event). */
  seenInbox?: Fingerprint;
  /** What the last rescan found (see rescan). */
  rescanned?: { debate: Fingerprint; inbox: Fingerprint };
  last?: WatchedDebate["last"];
  invalid?: WatchedDebate["invalid"];
  lockTimer?: NodeJS.Timeout;
  /** Aborts the run in progress (on stop, or when the folder is deleted). */
  running?: AbortController;
}

/**
 * What the debate's format counts progress in (`exchange`, `round`), read from its debate.md. A file
 * that does not read gets the default format's unit: its run reports why it does not read.
 */
async function unitOf(dir: string): Promise<string> {
  const text = await readFile(join(dir, debateFile), "utf8").catch(() => "");
  const split = splitFrontmatter(text);
  const named = formatOf(split.ok ? split.value.data : {});
  return (named.ok ? named.value : findFormat(DEFAULT_FORMAT_NAME)!).unit.one;
}

/** Cuts a message to its first line and ~200 characters, for one-line reports (redacted before the cut). */
function oneLine(text: string): string {
  return clipText(text.split("\n")[0] ?? "", 200);
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
    const unit = await unitOf(dir);
    const pending: PendingSeat[] = [];
    // Seats a person answers (manual): a rejection names their retry prompt, as `debate run` does.
    const people = new Set<string>();
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
            // Taken right after the commit: the runner re-reads debate.md before its next decision,
            // so an edit landing in between is still seen by this run.
            entry.seenDebate = debateFingerprintSync(dir);
            emit({
              type: "step_committed",
              dir,
              unit,
              from: event.from,
              exchange: event.exchange,
              phase: event.phase,
            });
          } else if (event.type === "seat_started" && event.adapter === "manual") {
            people.add(event.role);
          } else if (event.type === "retry") {
            emit({
              type: "answer_rejected",
              dir,
              unit,
              exchange: event.exchange,
              role: event.role,
              attempt: event.attempt,
              errors: event.errors,
              ...(people.has(event.role)
                ? { retryPrompt: `${promptsDir}/${stepStem({ ...event })}.md` }
                : {}),
            });
          } else if (event.type === "seat_finished" && event.status === "pending") {
            pending.push({ role: event.role, message: event.error ?? "" });
          } else if (event.type === "skill_problem") {
            // Passed through as the runner reports it (once per run, already redacted).
            emit(event);
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
        unit,
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
    const entry: Entry = { dir, seenDebate: debateFingerprintSync(dir) };
    entries.set(dir, entry);
    void inboxFingerprint(dir).then((print) => {
      entry.seenInbox ??= print;
    });
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
      const entry = entries.get(target.dir);
      if (!entry) return;
      queue.trigger(target.dir, `inbox/${target.name}`);
      entry.seenInbox = await inboxFingerprint(target.dir); // so the rescan does not run it again
      return;
    }
    if (addDebate(target.dir)) return;
    const entry = entries.get(target.dir)!;
    const print = await debateFingerprint(target.dir);
    if (print === entry.seenDebate) return; // e.g. the runner's own commit
    entry.seenDebate = print;
    queue.trigger(target.dir, "debate.md");
  };

  // The safety net: file events can be lost (chokidar on Linux can lose track of a file that is
  // replaced by a rename, paulmillr/chokidar#591), and a lost edit or answer would leave a debate
  // waiting for ever. Each rescan costs a stat per debate and a readdir of its inbox/. A change
  // counts only once two rescans in a row find the same unseen fingerprint: the file has stopped
  // changing (as awaitWriteFinish would wait for), and the event that normally reports it within
  // ~200 ms had its chance, so the rescan never doubles an event that did arrive.
  let rescanning = false;
  const rescan = async () => {
    if (rescanning || stopping || !isReady) return;
    rescanning = true;
    try {
      for (const entry of [...entries.values()]) {
        if (stopping) return;
        if (queue.isRunning(entry.dir)) continue; // its run reads the files anyway
        const [debate, inbox] = await Promise.all([
          debateFingerprint(entry.dir),
          inboxFingerprint(entry.dir),
        ]);
        // Removed meanwhile, or a run started meanwhile (its commit would look like a change).
        if (entries.get(entry.dir) !== entry || queue.isRunning(entry.dir)) continue;
        const before = entry.rescanned;
        entry.rescanned = { debate, inbox };
        if (debate !== entry.seenDebate && debate === before?.debate) {
          entry.seenDebate = debate;
          queue.trigger(entry.dir, "rescan:debate.md");
        }
        if (entry.seenInbox !== undefined && inbox !== entry.seenInbox && inbox === before?.inbox) {
          entry.seenInbox = inbox;
          queue.trigger(entry.dir, "rescan:inbox");
        }
      }
    } finally {
      rescanning = false;
    }
  };
  const rescanMs = options.rescanMs ?? 2000;
  const rescanTimer = rescanMs > 0 ? setInterval(() => void rescan(), rescanMs) : undefined;

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
      if (rescanTimer) clearInterval(rescanTimer);
      for (const entry of entries.values()) entry.running?.abort();
      for (const entry of entries.values()) if (entry.lockTimer) clearTimeout(entry.lockTimer);
      await watcher.close();
      await queue.close();
      emit({ type: "stopped" });
    },
  };
}
