// What a queue job may ask of a worker. Whoever can write the queue writes the jobs and the debate
// folders in Redis, so a job is data, checked before the worker acts on it: its ids must be slugs
// (they name the job's working folder), and its seats must be ones the worker's own settings allow
// (which adapters, which servers the seats may send their requests and keys to, loopback included).
import { clipText } from "@debatekit/core";
import { endpointCovers, seatsIn, serversOfSeat, splitFrontmatter } from "@debatekit/files";

/** The seats a worker runs: their adapters, and the servers (with what lies under them) they may be sent to. */
export interface WorkerSeats {
  /** The adapters whose seats the worker runs (`--adapters`). */
  adapters: readonly string[];
  /** Servers (`http(s)://host[:port][/path]`) a seat may name, with what lies under them (`--endpoint`). */
  endpoints: readonly string[];
}

/** Without settings of its own, a worker runs replay seats only: they contact nothing and use no key. */
export const DEFAULT_WORKER_SEATS: WorkerSeats = { adapters: ["replay"], endpoints: [] };

/** Where an `http` seat without `base_url` goes (@debatekit/adapter-http's `defaultBaseUrl`, a local Ollama). */
export const HTTP_DEFAULT_BASE_URL = "http://127.0.0.1:11434/v1";

/** A tournament id, a match id, a queued group or debate id: each names a folder, so a slug. */
export const QUEUE_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A value of a job as a person reads it: quoted, cut short (it came from the queue). */
const shown = (value: unknown) => clipText(JSON.stringify(value) ?? String(value), 120);

/** Why a debate job's data is refused (its ids are not slugs, its limits not an object), or undefined. */
export function refusedDebateJob(jobId: unknown, data: unknown): string | undefined {
  const { tid, id, limits } = (typeof data === "object" && data !== null ? data : {}) as Record<
    string,
    unknown
  >;
  for (const [name, value] of [
    ["job id", jobId],
    ["tid", tid],
    ["id", id],
  ] as const) {
    if (typeof value !== "string" || !QUEUE_SLUG.test(value))
      return `refused: its ${name} ${shown(value)} is not a slug (letters, digits, ".", "_", "-"; at most 100)`;
  }
  if (limits !== undefined && (typeof limits !== "object" || limits === null || Array.isArray(limits)))
    return `refused: its limits ${shown(limits)} are not an object`;
  return undefined;
}

/** Why a tournament (rating) job's data is refused, or undefined. */
export function refusedRatingJob(data: unknown): string | undefined {
  const { tid, matches } = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof tid !== "string" || !QUEUE_SLUG.test(tid)) return `refused: its tid ${shown(tid)} is not a slug`;
  if (!Array.isArray(matches)) return `refused: its matches ${shown(matches)} are not a list`;
  const bad = matches.find((m) => typeof m !== "string" || !QUEUE_SLUG.test(m));
  return bad === undefined ? undefined : `refused: its match id ${shown(bad)} is not a slug`;
}

/** Why this worker does not run the seat (`seat`: where it sits, e.g. `seats.judge`), or undefined. */
export function refusedSeat(
  seat: string,
  config: Record<string, unknown>,
  allowed: WorkerSeats,
): string | undefined {
  const adapter = config.adapter;
  if (typeof adapter !== "string" || !allowed.adapters.includes(adapter))
    return `seat \`${seat}\` uses the adapter ${shown(adapter)}, which this worker does not run (its --adapters: ${allowed.adapters.join(",") || "none"})`;
  const servers = serversOfSeat(config);
  if (adapter === "http" && config.base_url === undefined)
    servers.push(["base_url, the http adapter's default", HTTP_DEFAULT_BASE_URL]);
  for (const [field, url] of servers) {
    if (!allowed.endpoints.some((endpoint) => endpointCovers(endpoint, url)))
      return `seat \`${seat}\` would send its requests to ${shown(url)} (its ${field}), which is not one of this worker's --endpoint (${allowed.endpoints.join(", ") || "none"})`;
  }
  return undefined;
}

/**
 * Why this worker does not run a queued debate folder (`files`: its snapshot from Redis): the first
 * seat of its debate.md that the worker's settings do not allow, or undefined. A debate.md that is
 * missing or does not parse names no seat here; the run that reads it fails on its own.
 */
export function refusedFolderSeats(
  files: Readonly<Record<string, string>>,
  allowed: WorkerSeats,
): string | undefined {
  const text = files["debate.md"];
  if (text === undefined) return undefined;
  const split = splitFrontmatter(text, "debate.md");
  if (!split.ok) return undefined;
  for (const { seat, config } of seatsIn(split.value.data)) {
    const refused = refusedSeat(seat, config, allowed);
    if (refused) return `refused: debate.md: ${refused}; nothing was run`;
  }
  return undefined;
}
