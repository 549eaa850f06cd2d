import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { clipText, DebatekitError, quote } from "@debatekit/core";
import { formatValidationErrors, validateDebatekitConfig } from "@debatekit/schema";
import { parse as parseYaml } from "yaml";
import { writeFileAtomic } from "./atomic.js";
import { splitFrontmatter } from "./frontmatter.js";
import { MAX_MARKDOWN_BYTES, readTextInside } from "./text-file.js";

// A debate folder is data someone may hand over: the programs it names (a seat's `command:`, a
// `workspace:` outside the folder) run, and the servers off this machine its seats name are sent
// the user's credentials, only once the user allowed them for that folder, the way direnv's
// `allow` works: what was allowed is recorded outside the folder, by the folder's real path and a
// hash of each program, so an edit to a program needs a new `debate allow`.

/** The files whose seats a folder's consent covers, in the order they are looked for. */
const SEAT_FILES = ["debate.md", "tournament.md"] as const;

/** One thing a folder's seats would make happen on the machine. */
export interface SeatProgram {
  /** Where the seat sits in the file's frontmatter, e.g. `seats.proposition`. */
  seat: string;
  kind: "command" | "workspace" | "env" | "endpoint";
  /**
   * The argv (a command), the real path of the folder (a workspace), `[NAME, value]` (env), or
   * (an endpoint) the field naming the server (`base_url`, `env.NAME`), its URL, then the names of
   * the variables whose values it would be sent.
   */
  value: string[];
  /** The program as a person reads it (`/bin/sh -c 'touch x'`, or a folder). */
  shown: string;
  /** sha256 of the canonical form: the argv plus the content of every file it names inside the folder, or the workspace's real path. */
  hash: string;
}

/** What a folder's file names: the programs needing consent, and what no consent can allow. */
export interface FolderPrograms {
  /** The folder's real path (the key of its allowance). */
  dir: string;
  /** debate.md or tournament.md. */
  file: string;
  programs: SeatProgram[];
  /** Workspaces that are never allowed (`/`, the home folder or one of its ancestors), as messages. */
  refused: Array<{ seat: string; message: string }>;
}

/** The allowances and the user's own allowed commands. */
export interface Consent {
  /** Per folder real path: the hashes of the programs allowed there. */
  folders: Record<string, { allowed_at: string; programs: Array<{ hash: string; shown: string }> }>;
  /** Argv arrays from the user's config `allow_commands` (allowed in every folder). */
  allowCommands: string[][];
  /** Server URLs from the user's config `allow_endpoints` (allowed, and what lies under them, in every folder). */
  allowEndpoints: string[];
}

/** `$XDG_STATE_HOME/debatekit/allowed.json` (default `~/.local/state/debatekit/allowed.json`). */
export function allowancesFile(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME || path.join(env.HOME || homedir(), ".local", "state");
  return path.join(state, "debatekit", "allowed.json");
}

/** Quotes an argv for a person's eyes, the way a POSIX shell would read it back. */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(" ");
}

function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Every seat in a frontmatter: each object with a string `adapter`, by its dotted path. */
export function seatsIn(data: unknown, at = ""): Array<{ seat: string; config: Record<string, unknown> }> {
  if (typeof data !== "object" || data === null) return [];
  const here = data as Record<string, unknown>;
  if (typeof here.adapter === "string") return [{ seat: at || "(seat)", config: here }];
  return Object.entries(here).flatMap(([key, value]) => seatsIn(value, at ? `${at}.${key}` : key));
}

/** The real path of `target`, or `target` itself when it does not exist. */
async function realOrSelf(target: string): Promise<string> {
  return realpath(target).catch(() => target);
}

/** Files an argv names by absolute path inside `root`: their content is part of what is allowed. */
async function filesNamedInside(argv: readonly string[], root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const arg of argv) {
    if (!path.isAbsolute(arg)) continue;
    const real = await realOrSelf(arg);
    if (!isInside(root, real)) continue;
    const info = await stat(real).catch(() => undefined);
    if (info?.isFile()) files[real] = sha256(await readFile(real));
  }
  return files;
}

/**
 * Variables that decide which code a process loads or runs: set by a folder in a seat's `env:`,
 * they would run a program of the folder's through the user's own CLI (NODE_OPTIONS=--require ...).
 */
const CODE_LOADING_ENV =
  /^(PATH|NODE_OPTIONS|NODE_PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|PYTHON(PATH|STARTUP|HOME)|BASH_ENV|ENV|SHELL|PERL5(OPT|LIB)|RUBY(OPT|LIB)|GIT_(SSH|SSH_COMMAND|EXEC_PATH|CONFIG_GLOBAL))$/;

/** A value made only of `${NAME}` references passes the caller's own variables on: nothing of the folder's. */
const onlyReferences = /^(\$\{[A-Za-z_][A-Za-z0-9_]*\})+$/;

/** Variables naming a server (or proxy) the CLI sends its requests, and so its credentials, to. */
const ENDPOINT_ENV = /(_BASE_URL|_ENDPOINT|_HOST|_API_BASE|^(HTTPS?|ALL)_PROXY)$/i;

/** Adapters that contact no server: their `base_url`, if any, is never used. */
const OFFLINE_ADAPTERS = new Set(["replay", "manual"]);

/** `new URL(text)`, or undefined when it does not parse. */
function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The URL a server setting names (a bare `host:port` read as http), or undefined when it does not parse. */
function parseServer(value: string): URL | undefined {
  return parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
}

/** True for a server on this machine: 127.0.0.0/8, ::1 or localhost (the URL parser normalizes 127.1 and the like). */
function isLoopbackUrl(value: string): boolean {
  const host = parseServer(value)?.hostname;
  return (
    host !== undefined && (host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host))
  );
}

/** The `${NAME}` references of a value. */
function referencedNames(value: string): string[] {
  return [...value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
}

/**
 * The servers a seat names itself, on this machine or off it (none for an adapter that contacts no
 * server): its `base_url`, and env variables naming a server or proxy with a value of the folder's
 * own (a `${NAME}` reference passes the caller's own value on), each as `[field, url]`.
 */
export function serversOfSeat(config: Record<string, unknown>): Array<[field: string, url: string]> {
  if (OFFLINE_ADAPTERS.has(String(config.adapter))) return [];
  const env =
    typeof config.env === "object" && config.env !== null ? (config.env as Record<string, unknown>) : {};
  const servers: Array<[field: string, url: string]> = [];
  if (typeof config.base_url === "string") servers.push(["base_url", config.base_url]);
  for (const [name, raw] of Object.entries(env)) {
    const value = String(raw);
    if (ENDPOINT_ENV.test(name) && !onlyReferences.test(value)) servers.push([`env.${name}`, value]);
  }
  return servers;
}

/**
 * The servers off this machine a seat would send its requests to (its `base_url`, and env
 * variables naming a server with a value of the folder's own), each with the credentials the
 * request would carry: the variables it names (`api_key_env`, `${NAME}` in `env`) and, for a CLI,
 * the CLI's own login.
 */
function endpointsOfSeat(seat: string, config: Record<string, unknown>): SeatProgram[] {
  const adapter = String(config.adapter);
  const servers = serversOfSeat(config);
  if (servers.length === 0) return [];
  const env =
    typeof config.env === "object" && config.env !== null ? (config.env as Record<string, unknown>) : {};
  const names = [
    ...new Set([
      ...(typeof config.api_key_env === "string" ? [config.api_key_env] : []),
      ...Object.values(env).flatMap((v) => referencedNames(String(v))),
    ]),
  ].sort();
  const carried = [...names.map((n) => `$${n}`), ...(adapter === "http" ? [] : [`your ${adapter} login`])];
  return servers
    .filter(([, url]) => !isLoopbackUrl(url) || referencedNames(url).length > 0)
    .map(([field, url]) => ({
      seat,
      kind: "endpoint",
      value: [field, url, ...names],
      shown: `sends ${carried.join(" and ") || "its requests"} to ${url}${field === "base_url" ? "" : ` (its env ${field.slice(4)})`}`,
      hash: sha256(JSON.stringify({ endpoint: url, field, adapter, credentials: names })),
    }));
}

/** The folders a workspace may never be: the root, the home folder and every folder above it. */
function forbiddenWorkspace(real: string, home: string): boolean {
  return real === path.parse(real).root || isInside(real, home);
}

/**
 * What one seat would run or open: its `command` (when it has one) and its `workspace` when that
 * leads outside `root` (the folder consent is asked for). Files named inside `root` are hashed by content.
 */
async function programsOfSeat(
  seat: string,
  config: Record<string, unknown>,
  dir: string,
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<Pick<FolderPrograms, "programs" | "refused">> {
  const programs: SeatProgram[] = endpointsOfSeat(seat, config);
  const refused: FolderPrograms["refused"] = [];
  if (config.command !== undefined) {
    // Whatever its shape, a `command` asks to run something: a malformed one is shown as it is.
    const argv = Array.isArray(config.command)
      ? config.command.map(String)
      : [JSON.stringify(config.command)];
    const files = await filesNamedInside(argv, root);
    programs.push({
      seat,
      kind: "command",
      value: argv,
      shown: shellQuote(argv),
      hash: sha256(JSON.stringify({ command: argv, files })),
    });
  }
  if (typeof config.env === "object" && config.env !== null) {
    for (const [name, raw] of Object.entries(config.env as Record<string, unknown>)) {
      const value = String(raw);
      if (!CODE_LOADING_ENV.test(name) || onlyReferences.test(value)) continue;
      programs.push({
        seat,
        kind: "env",
        value: [name, value],
        shown: `sets ${name}=${shellQuote([value])}`,
        hash: sha256(JSON.stringify({ env: name, value })),
      });
    }
  }
  if (typeof config.workspace === "string") {
    const real = await realOrSelf(path.resolve(dir, config.workspace));
    const home = await realOrSelf(env.HOME || homedir());
    if (forbiddenWorkspace(real, home)) {
      refused.push({
        seat,
        message: `\`${seat}.workspace\` is ${quote(real)}: a seat may not read the whole machine or the home folder (${quote(home)}); give a project folder`,
      });
    } else if (!isInside(root, real)) {
      programs.push({
        seat,
        kind: "workspace",
        value: [real],
        shown: `reads ${real}`,
        hash: sha256(JSON.stringify({ workspace: real })),
      });
    }
  }
  return { programs, refused };
}

/** The programs the seats of a frontmatter name (debate.md's or tournament.md's), for the folder `dir`. */
export async function programsOfFrontmatter(
  data: unknown,
  dir: string,
  options: { env: NodeJS.ProcessEnv; consentDir?: string },
): Promise<Pick<FolderPrograms, "programs" | "refused">> {
  const root = await realOrSelf(path.resolve(options.consentDir ?? dir));
  const all = await Promise.all(
    seatsIn(data).map((s) => programsOfSeat(s.seat, s.config, dir, root, options.env)),
  );
  return { programs: all.flatMap((a) => a.programs), refused: all.flatMap((a) => a.refused) };
}

/**
 * Reads a folder's debate.md (else tournament.md) and lists the programs its seats name. A file
 * that does not parse lists nothing (no seat of it can run; reading it again says why).
 */
export async function readFolderPrograms(
  dir: string,
  options: { env: NodeJS.ProcessEnv; consentDir?: string },
): Promise<FolderPrograms> {
  const real = await realOrSelf(path.resolve(options.consentDir ?? dir));
  for (const file of SEAT_FILES) {
    const read = await readTextInside(dir, file, MAX_MARKDOWN_BYTES);
    if (!read.ok || read.value === undefined) continue;
    const split = splitFrontmatter(read.value, file);
    const found = split.ok
      ? await programsOfFrontmatter(split.value.data, dir, options)
      : { programs: [], refused: [] };
    return { dir: real, file, ...found };
  }
  return { dir: real, file: SEAT_FILES[0], programs: [], refused: [] };
}

/** The user's own config `allow_commands` and `allow_endpoints` (never a project's config: it may come with the debate). */
async function userAllowances(env: NodeJS.ProcessEnv): Promise<Omit<Consent, "folders">> {
  const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), ".config");
  for (const place of ["config.json", "config.yaml", "config.yml"]) {
    const file = path.join(configHome, "debatekit", place);
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    let data: unknown;
    try {
      data = parseYaml(text) ?? {};
    } catch (error) {
      throw new DebatekitError("CONFIG_INVALID", `${file}: ${(error as Error).message.split("\n")[0]}`, {
        file,
      });
    }
    const valid = validateDebatekitConfig(data);
    if (!valid.ok)
      throw new DebatekitError("CONFIG_INVALID", `${file}: ${formatValidationErrors(valid.errors)}`, {
        file,
      });
    return {
      allowCommands: valid.value.allow_commands ?? [],
      allowEndpoints: valid.value.allow_endpoints ?? [],
    };
  }
  return { allowCommands: [], allowEndpoints: [] };
}

async function readAllowances(env: NodeJS.ProcessEnv): Promise<Consent["folders"]> {
  const file = allowancesFile(env);
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return {};
  try {
    const data = JSON.parse(text) as { folders?: Consent["folders"] };
    return data.folders && typeof data.folders === "object" ? data.folders : {};
  } catch (error) {
    throw new DebatekitError(
      "ALLOWANCES_INVALID",
      `${file}: not JSON (${(error as Error).message}); fix it or delete it and allow the folders again`,
      { file },
    );
  }
}

/** Loads what the user allowed: `debate allow`'s records and their config's `allow_commands` and `allow_endpoints`. */
export async function loadConsent(env: NodeJS.ProcessEnv): Promise<Consent> {
  const [folders, own] = await Promise.all([readAllowances(env), userAllowances(env)]);
  return { folders, ...own };
}

/** True when `url` is the server `allowed` or lies under it: same scheme, host and port, and a path at or below its path. */
export function endpointCovers(allowed: string, url: string): boolean {
  const [a, u] = [parseUrl(allowed), parseServer(url)];
  if (!a || !u || a.origin !== u.origin || a.origin === "null") return false;
  const base = a.pathname.replace(/\/+$/, "");
  return u.pathname === base || u.pathname.startsWith(`${base}/`);
}

/** True when the user allowed `program` for the folder whose real path is `dir`. */
export function isProgramAllowed(consent: Consent, dir: string, program: SeatProgram): boolean {
  if (
    program.kind === "command" &&
    consent.allowCommands.some(
      (argv) => argv.length === program.value.length && argv.every((a, i) => a === program.value[i]),
    )
  )
    return true;
  if (
    program.kind === "endpoint" &&
    consent.allowEndpoints.some((allowed) => endpointCovers(allowed, program.value[1]!))
  )
    return true;
  return consent.folders[dir]?.programs.some((p) => p.hash === program.hash) ?? false;
}

/** The programs of `found` the user has not allowed. */
export function unallowedPrograms(consent: Consent, found: FolderPrograms): SeatProgram[] {
  return found.programs.filter((p) => !isProgramAllowed(consent, found.dir, p));
}

/**
 * Throws PROGRAM_NOT_ALLOWED (or WORKSPACE_REFUSED) unless every program `found` names is
 * allowed; the message names the file, the seat, the program and the command that allows it.
 */
export function assertAllowed(consent: Consent, found: FolderPrograms, allowCommand: string): void {
  const refused = found.refused[0];
  if (refused) {
    throw new DebatekitError("WORKSPACE_REFUSED", `${found.file}: ${refused.message}`, {
      file: found.file,
      field: `${refused.seat}.workspace`,
    });
  }
  const missing = unallowedPrograms(consent, found)[0];
  if (!missing) return;
  const everywhere =
    missing.kind === "endpoint"
      ? "the server in your own config's allow_endpoints"
      : "the command in your own config's allow_commands";
  throw new DebatekitError(
    "PROGRAM_NOT_ALLOWED",
    `${found.file}: seat \`${missing.seat}\` ${whatItWouldDo(missing)}, which you have not allowed for ${quote(found.dir)}; nothing was run. Check it, then allow it with \`${allowCommand}\` (or list ${everywhere})`,
    {
      file: found.file,
      field: `${missing.seat}.${missing.kind === "endpoint" ? missing.value[0] : missing.kind}`,
    },
  );
}

/** What a program would do, for a refusal: `would run <argv>`, `would send $KEY to <url>` ... */
export function whatItWouldDo(program: SeatProgram): string {
  switch (program.kind) {
    case "command":
      return `would run ${clipText(program.shown, 200)}`;
    case "env":
      return `${clipText(program.shown, 200)} (it decides what code the CLI runs)`;
    case "endpoint":
      return `would send ${clipText(program.shown.replace(/^sends /, ""), 300)}`;
    case "workspace":
      return `would read ${quote(program.value[0]!)}, outside the folder`;
  }
}

async function writeAllowances(env: NodeJS.ProcessEnv, folders: Consent["folders"]): Promise<void> {
  const file = allowancesFile(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, folders }, null, 2)}\n`);
}

/** Records that every program of `found` may run in its folder (replacing what was allowed there before). */
export async function allowFolder(found: FolderPrograms, env: NodeJS.ProcessEnv, now: Date): Promise<void> {
  const folders = await readAllowances(env);
  folders[found.dir] = {
    allowed_at: now.toISOString(),
    programs: found.programs.map((p) => ({ hash: p.hash, shown: `${p.seat}: ${p.shown}` })),
  };
  await writeAllowances(env, folders);
}

/** Forgets what was allowed for the folder `dir` (a real path); true when there was something. */
export async function denyFolder(dir: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const folders = await readAllowances(env);
  if (!folders[dir]) return false;
  delete folders[dir];
  await writeAllowances(env, folders);
  return true;
}
