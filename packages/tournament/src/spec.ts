import { DebatekitError, quote } from "@debatekit/core";
import type { SeatConfig, TournamentEntrant } from "@debatekit/schema";
import { validateSeatConfig } from "@debatekit/schema";

const ADAPTERS = ["claude", "gemini", "codex", "opencode", "copilot", "acp", "http", "replay", "manual"];

/** The recording every replay seat of a tournament's debate answers from (copied in by `new --replay`). */
export const REPLAY_FILE = "replay.jsonl";

/**
 * Parses one `--seats`/`--judges` entry: `adapter[:model][@base_url]`, e.g. `claude`,
 * `gemini:gemini-2.5-pro`, `http:llama3@http://127.0.0.1:8080/v1`, `replay:alice`. The name is the
 * entry without its `@base_url`. A replay seat answers from the debate's own replay.jsonl.
 */
export function parseEntrant(spec: string, flag: string): TournamentEntrant {
  const text = spec.trim();
  const at = text.indexOf("@");
  const name = at >= 0 ? text.slice(0, at) : text;
  const baseUrl = at >= 0 ? text.slice(at + 1) : undefined;
  const colon = name.indexOf(":");
  const adapter = colon >= 0 ? name.slice(0, colon) : name;
  const model = colon >= 0 ? name.slice(colon + 1) : undefined;
  if (!ADAPTERS.includes(adapter)) {
    throw new DebatekitError(
      "SEAT_SPEC_INVALID",
      `${flag}: ${quote(spec)} names no adapter: expected adapter[:model][@base_url] with adapter one of ${ADAPTERS.join(", ")} (e.g. "gemini:gemini-2.5-pro")`,
      { field: flag },
    );
  }
  const seat: SeatConfig = {
    adapter: adapter as SeatConfig["adapter"],
    ...(model ? { model } : {}),
    ...(baseUrl ? { base_url: baseUrl } : {}),
    ...(adapter === "replay" ? { file: REPLAY_FILE } : {}),
  };
  const valid = validateSeatConfig(seat);
  if (!valid.ok || !/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/.test(name) || name.length > 200) {
    throw new DebatekitError(
      "SEAT_SPEC_INVALID",
      `${flag}: ${quote(spec)} is not a valid seat: expected adapter[:model][@base_url], letters, digits and . _ : / - in the name${valid.ok ? "" : ` (${valid.errors[0]!.path || "seat"} ${valid.errors[0]!.message})`}`,
      { field: flag },
    );
  }
  return { name, seat };
}

/** Parses a comma-separated list of entrants; names must be unique. */
export function parseEntrants(list: string, flag: string): TournamentEntrant[] {
  const entrants = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => parseEntrant(s, flag));
  const seen = new Set<string>();
  for (const e of entrants) {
    if (seen.has(e.name)) {
      throw new DebatekitError("SEAT_SPEC_DUPLICATE", `${flag}: ${quote(e.name)} is listed twice`, {
        field: flag,
      });
    }
    seen.add(e.name);
  }
  return entrants;
}

/** A name as a slug part: `gemini:gemini-2.5-pro` -> `gemini-gemini-2-5-pro`. */
export function slugPart(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "x"
  );
}
