import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { performance } from "node:perf_hooks";

/** How to start one program for one seat call. */
export interface RunProcessOptions {
  command: string;
  args: string[];
  /** Written to stdin, which is then closed (an open stdin hangs some CLIs, e.g. `codex exec`). */
  stdin?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Cap per stream; output beyond it is read and dropped (default 8 MiB). */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL to the process group (default 2000 ms). */
  killGraceMs?: number;
}

/** What happened to the program. */
export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
  /** Set when the program could not be started at all (e.g. `ENOENT`: not installed). */
  spawnError?: { code: string; message: string };
}

const defaultMaxOutputBytes = 8 * 1024 * 1024;
const defaultKillGraceMs = 2000;

/** A stream sink that keeps at most `cap` bytes and remembers whether it dropped any. */
class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** True while any process of the group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * True while a process of the group `pgid` still runs. On Linux, /proc tells a dying process from a
 * zombie (dead, waiting for init to reap it, which can take seconds in a container); elsewhere any
 * member counts.
 */
function groupRunning(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return groupAlive(pgid);
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** Resolves once no process of the group `pgid` runs any more, or after `limitMs`. */
async function groupGone(pgid: number, limitMs: number): Promise<void> {
  const end = performance.now() + limitMs;
  while (groupRunning(pgid) && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Runs a program without a shell in its own process group, writes `stdin` then closes it,
 * and enforces the timeout and the abort signal by SIGTERM then SIGKILL to the whole group.
 * Never throws for the program's own failures: they are in the outcome.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const cap = options.maxOutputBytes ?? defaultMaxOutputBytes;
  const grace = options.killGraceMs ?? defaultKillGraceMs;
  const started = performance.now();
  const stdout = new CappedBuffer(cap);
  const stderr = new CappedBuffer(cap);
  let timedOut = false;
  let cancelled = false;

  if (options.signal?.aborted) {
    return Promise.resolve({
      stdout: "",
      stderr: "",
      exitCode: null,
      signal: null,
      timedOut: false,
      cancelled: true,
      truncated: false,
      durationMs: 0,
    });
  }

  return new Promise((resolve) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: false,
      // Its own process group, so the timeout reaches grandchildren too.
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const pgid = child.pid;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let spawnError: ProcessOutcome["spawnError"];
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;

    /** SIGTERM the group now, SIGKILL whatever is left after the grace period. */
    const terminateGroup = () => {
      if (pgid === undefined || killTimer) return;
      signalGroup(pgid, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(pgid, "SIGKILL"), grace);
      killTimer.unref();
    };

    const timer = setTimeout(() => {
      timedOut = true;
      terminateGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      terminateGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = async () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      // Leftovers of the group (a grandchild that outlived its parent) are killed outright, and the
      // call returns once they are gone (a big process can take a second to die on a loaded
      // machine): nothing of a finished call may keep running or billing.
      if (pgid !== undefined && groupAlive(pgid)) {
        signalGroup(pgid, "SIGKILL");
        await groupGone(pgid, grace);
      }
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode,
        signal: exitSignal,
        timedOut,
        cancelled: cancelled && !timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError ? { spawnError } : {}),
      });
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // A program that exits without reading its stdin makes the write fail with EPIPE: not our error.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");

    child.on("error", (error: NodeJS.ErrnoException) => {
      spawnError = { code: error.code ?? "ESPAWN", message: error.message };
      void finish();
    });
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // A grandchild may still hold the pipes open; end the group so `close` can come.
      if (pgid !== undefined && groupAlive(pgid)) terminateGroup();
    });
    child.on("close", () => void finish());
  });
}

/** The executable a program name resolves to on `PATH` (no shell), or undefined. */
export function findOnPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const isExecutable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes("/")) return isExecutable(program) && isAbsolute(program) ? program : undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, program);
    if (isExecutable(file)) return file;
  }
  return undefined;
}
