import { randomBytes } from "node:crypto";
import { link, mkdir, open, readFile, rmdir, stat, unlink, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { DebatekitError, quote } from "@debatekit/core";
import { resolveInside } from "./paths.js";
import { isProcessAlive } from "./pid.js";
import { sleepUnlessAborted } from "./sleep.js";
import { removeStaleTempFiles } from "./temp-files.js";

const LOCK_FILE = ".debate/lock";
/** How often the holder touches the lock file, so other hosts can tell it is alive. */
const HEARTBEAT_MS = 10_000;
/** A lock whose file was not touched for this long is stale even if its pid looks alive (hung, other host, pid reused). */
const DEFAULT_STALE_MS = 120_000;
/** A crashed recovery leaves its mutex folder behind; after this long it is removed. */
const RECOVERY_STALE_MS = 10_000;
const POLL_MS = 100;

/** Who holds a debate's lock (the content of .debate/lock). */
export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  started_at: string;
  token: string;
}

/** Options of acquireLock. */
export interface LockOptions {
  /** Wait for the holder to release instead of failing with DEBATE_LOCKED. */
  wait?: boolean;
  /** Give up waiting after this long (default: wait forever). */
  waitTimeoutMs?: number;
  /** What the holder is doing, shown to the next acquirer (default: this process's argv). */
  command?: string;
  /** Age after which an untouched lock is stale (default 120 s). */
  staleMs?: number;
  /** Stops a wait: acquireLock then throws LOCK_WAIT_CANCELLED (Ctrl-C while waiting with --wait). */
  signal?: AbortSignal;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
}

async function readHolder(
  file: string,
): Promise<{ holder?: LockHolder; mtimeMs: number; raw: string } | undefined> {
  try {
    const [raw, stats] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    let holder: LockHolder | undefined;
    try {
      const data = JSON.parse(raw) as LockHolder;
      if (Number.isInteger(data.pid) && typeof data.host === "string" && typeof data.token === "string")
        holder = data;
    } catch {
      holder = undefined;
    }
    return { ...(holder ? { holder } : {}), mtimeMs: stats.mtimeMs, raw };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function isStale(found: { holder?: LockHolder; mtimeMs: number }, staleMs: number): boolean {
  const age = Date.now() - found.mtimeMs;
  // Unreadable content (an older version's crash between creating and filling it, or a hand edit).
  if (!found.holder) return age > RECOVERY_STALE_MS;
  if (found.holder.host === hostname() && !isProcessAlive(found.holder.pid)) return true;
  return age > staleMs;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return "an unknown process (the lock file is being written or is unreadable)";
  return `pid ${holder.pid} on ${holder.host} (${quote(holder.command, 120)}) since ${holder.started_at}`;
}

/** Who holds the debate's lock now: undefined when nobody does or the lock is stale (its holder died). */
export async function readLockHolder(
  dir: string,
  staleMs = DEFAULT_STALE_MS,
): Promise<LockHolder | undefined> {
  const found = await readHolder(resolveInside(dir, LOCK_FILE));
  if (!found?.holder || isStale(found, staleMs)) return undefined;
  return found.holder;
}

/** Removes a stale lock, if it is still the same stale lock, under a mutex so two recoverers cannot race. */
async function recoverStale(file: string, staleRaw: string): Promise<void> {
  const mutex = `${file}.recover`;
  try {
    await mkdir(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (await stat(mutex).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > RECOVERY_STALE_MS) await rmdir(mutex).catch(() => undefined);
    return;
  }
  try {
    const again = await readFile(file, "utf8").catch(() => undefined);
    if (again === staleRaw) await unlink(file);
  } finally {
    await rmdir(mutex).catch(() => undefined);
  }
}

/**
 * Takes .debate/lock for this process. Throws DEBATE_LOCKED naming the holder (or waits with `wait`);
 * recovers a stale lock (dead pid on this host, or not touched for `staleMs`).
 */
export async function acquireLock(
  dir: string,
  options: LockOptions = {},
): Promise<{ release(): Promise<void>; holder: LockHolder }> {
  const file = resolveInside(dir, LOCK_FILE);
  // The folder .debate, when the lock made it, goes with the lock: a run that wrote nothing else
  // leaves no trace.
  const madeDir = await mkdir(path.dirname(file), { recursive: true });
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: options.command ?? process.argv.slice(1).join(" "),
    started_at: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const content = `${JSON.stringify(holder, null, 2)}\n`;
  // The lock appears whole or not at all: its content is written to a temp file first (named like
  // writeFileAtomic's, so a killed process's leftover is tidied), then hard-linked to the lock's
  // name, which fails if the lock exists. A kill can never leave an empty lock behind.
  const temp = path.join(path.dirname(file), `.lock.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o644);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    const taken = await takeLock(dir, file, temp, content, holder, staleMs, options);
    if (!madeDir) return taken;
    return {
      holder,
      release: async () => {
        await taken.release();
        // Fails (and is left) when anything else was written in it.
        await rmdir(madeDir).catch(() => undefined);
      },
    };
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function takeLock(
  dir: string,
  file: string,
  temp: string,
  content: string,
  holder: LockHolder,
  staleMs: number,
  options: LockOptions,
): Promise<{ release(): Promise<void>; holder: LockHolder }> {
  const deadline =
    options.waitTimeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.waitTimeoutMs;
  let announced = false;
  for (;;) {
    try {
      await createWhole(temp, file, content);
      const release = startHeartbeat(file, content);
      // Holding the lock, no other writer of this folder is running: tidy temp files left by a killed one.
      try {
        await removeStaleTempFiles(dir);
      } catch (error) {
        await release();
        throw error;
      }
      return { holder, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const found = await readHolder(file);
    if (found === undefined) continue; // released between our attempt and our read
    if (isStale(found, staleMs)) {
      await recoverStale(file, found.raw);
      continue;
    }
    if (!options.wait || Date.now() > deadline) {
      throw new DebatekitError(
        "DEBATE_LOCKED",
        `${dir} is being advanced by ${describeHolder(found.holder)}; wait for it (--wait) or stop it`,
        { file: LOCK_FILE },
      );
    }
    if (!announced) {
      announced = true;
      options.onWait?.(found.holder);
    }
    await sleepUnlessAborted(POLL_MS, options.signal);
    if (options.signal?.aborted)
      throw new DebatekitError(
        "LOCK_WAIT_CANCELLED",
        `stopped while waiting for ${describeHolder(found.holder)} to release ${dir}`,
        { file: LOCK_FILE },
      );
  }
}

/** Creates the lock from the temp file; where hard links are not supported, creates it in place. */
async function createWhole(temp: string, file: string, content: string): Promise<void> {
  try {
    await link(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
    const handle = await open(file, "wx", 0o644);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function startHeartbeat(file: string, content: string): () => Promise<void> {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    // Only remove our own lock: if we were judged stale and someone took over, theirs stays.
    const current = await readFile(file, "utf8").catch(() => undefined);
    if (current === content) await unlink(file);
  };
}
