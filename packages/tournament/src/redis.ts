// The queue's Redis connections. A queue that cannot be used ends the command in one line naming
// its host, never its password: ioredis and BullMQ print every error they are not given a listener
// for, with its stack and the failed command (AUTH's password included), and reconnect forever.
import { DebatekitError, hideUrlCredentials, type LabelledSecret, redactMessage } from "@debatekit/core";
import { Redis } from "ioredis";

/**
 * An unusable queue (nobody answering, a login refused) ends the command within this long, and so
 * does a queue that stops answering once connected (the default of `--redis-timeout`).
 */
export const QUEUE_CONNECT_TIMEOUT_MS = 10_000;
/** A connection in use is asked something (TIME) at most this often, to notice a Redis that stopped answering. */
const HEARTBEAT_MAX_MS = 5_000;
/** A connection lost after it worked is tried again this often, this many times (about 10 s). */
const RECONNECT_DELAY_MS = 500;
const RECONNECTS = 20;
/** One try at a host that does not answer at all (a dropped SYN) waits at most this long. */
const CONNECT_TRY_MS = 3_000;
/** Replies that no retry can change: the credentials (or the user's rights) are wrong. */
const LOGIN_REFUSED = /^(?:WRONGPASS|NOAUTH|NOPERM)\b|^ERR invalid password/i;

/** A Redis connection for the queue; the errors it makes name `where` (host:port) only. */
export interface QueueConnection {
  redis: Redis;
  where: string;
  /** Set once the connection is lost for good (its reconnects gave up), never by close(). */
  lostError(): DebatekitError | undefined;
  /** Resolves with that error when it is set. */
  lost: Promise<DebatekitError>;
  /** Quits (disconnects when Redis does not answer within a second); the connection is not lost then. */
  close(): Promise<void>;
}

/** Where a queue URL points, and its password (so that no message shows it, whatever its shape). */
export function parseQueueUrl(url: string): { where: string; secrets: LabelledSecret[] } {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^rediss?:$/.test(parsed.protocol) || !parsed.hostname) {
    throw new DebatekitError(
      "QUEUE_URL_INVALID",
      redactMessage(
        `--queue must be a redis:// URL (e.g. redis://127.0.0.1:6379), got ${JSON.stringify(hideUrlCredentials(url))}`,
      ),
      { field: "--queue" },
    );
  }
  const password = parsed.password;
  return {
    where: `${parsed.hostname}:${parsed.port || 6379}`,
    secrets: [password, safeDecode(password)]
      .filter((value) => value !== "")
      .map((value) => ({ label: "the queue's password", value })),
  };
}

/**
 * What to warn about a queue URL before using it (never its password): a Redis off this machine
 * reached without a password (anyone who can reach it can enqueue debates, and their workers run
 * them), or over plain redis:// (the password and every debate cross the network unencrypted).
 */
export function queueUrlWarnings(url: string): string[] {
  const { where } = parseQueueUrl(url);
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host)) return [];
  const warnings: string[] = [];
  if (!parsed.password)
    warnings.push(
      `the queue at ${where} is not on this machine and its URL has no password: whoever can reach it can add jobs to it (give redis://:PASSWORD@host, with requirepass or an ACL user on the server)`,
    );
  if (parsed.protocol !== "rediss:")
    warnings.push(
      `the queue at ${where} is not on this machine and its URL is redis://, not rediss://: its password and the debates cross the network unencrypted`,
    );
  return warnings;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One line about the queue at `where`, with the reason from `error` (its first line, redacted). */
function queueError(
  code: string,
  what: string,
  error: Error | undefined,
  secrets: LabelledSecret[],
): DebatekitError {
  // Redacted before it is cut to a line (and with the password, whatever its shape).
  const text = error ? error.message || String((error as NodeJS.ErrnoException).code ?? "") : "";
  const reason = redactMessage(text, secrets).split("\n")[0];
  return new DebatekitError(code, `${what}${reason ? ` (${reason})` : ""}`, { field: "--queue" });
}

/**
 * Connects to the queue's Redis and waits until it is ready: within `timeoutMs` (default
 * QUEUE_CONNECT_TIMEOUT_MS), or at once when the login is refused or `signal` aborts, it fails
 * with one line naming host:port. Commands wait while a lost connection is tried again (BullMQ's
 * workers block on theirs); when the reconnects give up, they fail and `lost` resolves. A ready
 * connection is asked TIME every few seconds: when no reply comes within `timeoutMs` (a Redis that
 * accepts connections and then answers nothing), the connection is dropped, its commands fail and
 * `lost` resolves with QUEUE_STUCK.
 */
export async function openQueueConnection(
  url: string,
  signal?: AbortSignal,
  timeoutMs: number = QUEUE_CONNECT_TIMEOUT_MS,
): Promise<QueueConnection> {
  const { where, secrets } = parseQueueUrl(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: CONNECT_TRY_MS,
    // ioredis keeps a socket it gave up on for 2 s by default, and with it the process.
    disconnectTimeout: 200,
    retryStrategy: (times) => (times > RECONNECTS ? null : RECONNECT_DELAY_MS),
  });
  let last: Error | undefined;
  let closing = false;
  let lost: DebatekitError | undefined;
  // Heard here, ioredis prints nothing of its own; what went wrong is told once, below.
  redis.on("error", (error: Error) => {
    last = error;
  });
  let loseWith: (error: DebatekitError) => void = () => undefined;
  const lostPromise = new Promise<DebatekitError>((resolve) => {
    loseWith = (error) => {
      if (closing || lost) return;
      lost = error;
      resolve(error);
    };
    redis.once("ready", () =>
      redis.once("end", () =>
        loseWith(
          queueError(
            "QUEUE_LOST",
            `lost the queue at ${where}: no answer after ${RECONNECTS} reconnects ${RECONNECT_DELAY_MS} ms apart`,
            last,
            secrets,
          ),
        ),
      ),
    );
  });
  let connected = false;
  redis.on("connect", () => {
    connected = true;
  });
  try {
    await new Promise<void>((ready, fail) => {
      const finish = (error?: DebatekitError) => {
        clearTimeout(timer);
        redis.off("ready", onReady);
        redis.off("end", onEnd);
        redis.off("error", onError);
        signal?.removeEventListener("abort", onAbort);
        if (error) fail(error);
        else ready();
      };
      const unreachable = () =>
        queueError(
          "QUEUE_UNREACHABLE",
          connected
            ? `the queue at ${where} took the connection but did not answer its handshake within ${seconds(timeoutMs)} s`
            : `cannot reach the queue at ${where} within ${seconds(timeoutMs)} s`,
          last,
          secrets,
        );
      const onReady = () => finish();
      const onEnd = () => finish(unreachable());
      const onError = (error: Error) => {
        if (LOGIN_REFUSED.test(error.message))
          finish(
            queueError("QUEUE_LOGIN_REFUSED", `the queue at ${where} refused the login`, error, secrets),
          );
      };
      const onAbort = () =>
        finish(new DebatekitError("QUEUE_STOPPED", `stopped while connecting to the queue at ${where}`));
      const timer = setTimeout(() => finish(unreachable()), timeoutMs);
      redis.once("ready", onReady);
      redis.once("end", onEnd);
      redis.on("error", onError);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) onAbort();
      // Its failures arrive as the events above.
      else redis.connect().catch(() => undefined);
    });
  } catch (error) {
    closing = true;
    redis.disconnect();
    throw error;
  }
  const heartbeat = startHeartbeat(redis, timeoutMs, () => {
    loseWith(
      new DebatekitError(
        "QUEUE_STUCK",
        `the queue at ${where} stopped answering: no reply to TIME within ${seconds(timeoutMs)} s (it answered before; --redis-timeout sets how long to wait)`,
        { field: "--queue" },
      ),
    );
    // Every command waiting on it fails now, so nothing waits on a Redis that answers nothing.
    redis.disconnect();
  });
  return {
    redis,
    where,
    lostError: () => lost,
    lost: lostPromise,
    async close() {
      clearInterval(heartbeat);
      closing = true;
      const quit = redis.quit().catch(() => undefined);
      const timer = new Promise((done) => setTimeout(done, 1_000).unref());
      await Promise.race([quit, timer]);
      redis.disconnect();
    },
  };
}

/** Milliseconds as seconds for a message: `10`, `1.5`. */
const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

/**
 * Asks `redis` TIME every min(timeoutMs / 2, 5 s) while it is ready, one question at a time; calls
 * `stuck` when a reply takes longer than `timeoutMs`. Any reply counts, an error too. A connection
 * that is reconnecting is left to its reconnects. Returns the interval (cleared by close()).
 */
function startHeartbeat(redis: Redis, timeoutMs: number, stuck: () => void): NodeJS.Timeout {
  let asking = false;
  let timer: NodeJS.Timeout | undefined;
  // A connection lost is the reconnects' business (they give up in about 10 s), not a stuck one.
  redis.on("close", () => clearTimeout(timer));
  const beat = setInterval(
    () => {
      if (asking || redis.status !== "ready") return;
      asking = true;
      timer = setTimeout(() => {
        clearInterval(beat);
        stuck();
      }, timeoutMs);
      redis
        .time()
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          asking = false;
        });
    },
    Math.max(50, Math.min(timeoutMs / 2, HEARTBEAT_MAX_MS)),
  );
  beat.unref();
  return beat;
}

/** Waits for `work` at most `ms`; whether it settled. A close that hangs on a lost connection must not keep the command. */
export async function settlesWithin(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((done) => {
    timer = setTimeout(() => done(false), ms);
  });
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    late,
  ]);
  clearTimeout(timer);
  return settled;
}

/**
 * `emitter` with an `error` listener: BullMQ prints (with the failed command, AUTH's password
 * included) each error nobody hears. What they report surfaces as the command that failed, or as
 * the connection lost; `onError` hears the rest.
 */
export function heard<T extends { on(event: "error", listener: (error: Error) => void): unknown }>(
  emitter: T,
  onError: (error: Error) => void = () => undefined,
): T {
  emitter.on("error", onError);
  return emitter;
}
