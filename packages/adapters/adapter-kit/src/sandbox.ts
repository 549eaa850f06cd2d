import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, lstat, mkdir, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { SeatConfig } from "@debatekit/schema";

/** What a seat may do besides writing text (docs/architecture.md#adapters-and-seat-safety): nothing, or read inside its workspace. */
export type SeatTools = "none" | "read";

/**
 * Where one seat's process runs. A seat never runs in the caller's working directory: its
 * working directory is an empty folder of its own, or the declared workspace with `tools: read`.
 * `dir` holds the private configuration homes a CLI is pointed at (CODEX_HOME, XDG_*...); it is
 * in the system temp folder, never inside the caller's folder, and kept between the calls of one
 * seat so a session can be resumed.
 */
export interface SeatSandbox {
  /** Private folder (mode 0700) for the CLI's configuration; what a call writes into it is removed after it. */
  dir: string;
  /** The process's working directory. */
  cwd: string;
  tools: SeatTools;
  /** Absolute real path of the readable folder (only with `tools: read`). */
  workspace?: string;
  isolation: "on" | "off";
}

/** The seat's model server, from `base_url` and `api_key_env` (the key's value, never written to a file). */
export interface SeatEndpoint {
  baseUrl?: string;
  apiKey?: { name: string; value: string | undefined };
}

/** What a CLI adapter's `launch` receives for one call. */
export interface LaunchInput {
  sandbox: SeatSandbox;
  /** The child's environment so far: the caller's, the seat's `env`, the effort level's. */
  env: NodeJS.ProcessEnv;
  endpoint: SeatEndpoint;
  model?: string;
  /** The program and the seat's own arguments before ours (`seat.command`, else the spec's program). */
  command?: readonly string[];
}

/** What one call of a CLI adds to its argv and environment, and the files it needs in the sandbox. */
export interface LaunchPlan {
  /** Flags added before the effort level's (tools off, isolation). */
  args?: string[];
  /** Variables set (a string) or removed (undefined) in the child's environment. */
  env?: Record<string, string | undefined>;
  /** Files written (mode 0600) under `sandbox.dir` before the call and removed after it. */
  files?: Record<string, string>;
  /** Symlinks made under `sandbox.dir` to existing files (a login's credentials), removed after the call. */
  links?: Record<string, string>;
}

/** A seat's settings that decide its sandbox, with their defaults. */
export function seatSafety(seat: SeatConfig): {
  tools: SeatTools;
  isolation: "on" | "off";
  workspace?: string;
} {
  return {
    tools: seat.tools ?? "none",
    isolation: seat.isolation ?? "on",
    ...(seat.workspace ? { workspace: seat.workspace } : {}),
  };
}

/** The temp folder of the seat's environment (its TMPDIR), else the system's. */
export function seatTempRoot(env: NodeJS.ProcessEnv): string {
  const dir = env.TMPDIR;
  return dir && isAbsolute(dir) ? dir : tmpdir();
}

/**
 * The private folder of one seat: stable for one debate folder and seat (so a resumed session
 * finds its files), different for every other; under the temp folder.
 */
export function seatSandboxDir(debateDir: string, key: string, env: NodeJS.ProcessEnv): string {
  const id = createHash("sha256")
    .update(`${resolve(debateDir)}\0${key}`)
    .digest("hex")
    .slice(0, 20);
  return join(seatTempRoot(env), "debatekit-seats", id);
}

/** Thrown when a seat cannot be given a sandbox; the adapter turns it into `unavailable`. */
export class SandboxError extends Error {
  override name = "SandboxError";
}

/**
 * Prepares the sandbox of one call: the private folder (0700, its own `work/` folder) and the
 * checked workspace. `key` tells the seats of one debate apart (the role, else the adapter).
 */
export async function openSeatSandbox(
  seat: SeatConfig,
  options: { debateDir: string; key: string; env: NodeJS.ProcessEnv },
): Promise<SeatSandbox> {
  const { tools, isolation, workspace } = seatSafety(seat);
  const dir = seatSandboxDir(options.debateDir, options.key, options.env);
  await mkdir(join(dir, "work"), { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  let readable: string | undefined;
  if (tools === "read") {
    if (!workspace) throw new SandboxError("`tools: read` needs a `workspace:` folder the seat may read");
    const wanted = resolve(options.debateDir, workspace);
    const real = await realpath(wanted).catch(() => undefined);
    if (!real || !(await stat(real)).isDirectory())
      throw new SandboxError(`the workspace ${workspace} is not a folder (resolved to ${wanted})`);
    readable = real;
  }
  return {
    dir,
    cwd: readable ?? join(dir, "work"),
    tools,
    isolation,
    ...(readable ? { workspace: readable } : {}),
  };
}

function insideSandbox(sandbox: SeatSandbox, path: string): string {
  const target = resolve(sandbox.dir, path);
  const rel = relative(sandbox.dir, target);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel))
    throw new SandboxError(`launch file ${path} is not inside the seat's private folder`);
  return target;
}

/**
 * Writes a launch plan's files and links into the sandbox; returns the function that removes
 * them again (called when the call ends, whatever happened), so no copy of a secret outlives it.
 */
export async function materializePlan(sandbox: SeatSandbox, plan: LaunchPlan): Promise<() => Promise<void>> {
  const made: string[] = [];
  const remove = async () => {
    await Promise.all(made.map((path) => rm(path, { force: true })));
  };
  try {
    for (const [path, content] of Object.entries(plan.files ?? {})) {
      const target = insideSandbox(sandbox, path);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await rm(target, { force: true });
      made.push(target);
      await writeFile(target, content, { mode: 0o600 });
    }
    for (const [path, to] of Object.entries(plan.links ?? {})) {
      const target = insideSandbox(sandbox, path);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const existing = await lstat(target).catch(() => undefined);
      if (existing) await rm(target, { force: true, recursive: existing.isDirectory() });
      made.push(target);
      await symlink(to, target);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The seat's `env:` with `${NAME}` references replaced by the caller's values. A reference to a
 * variable that is not set is an error naming both (the seat would otherwise run half-configured).
 */
export function resolveSeatEnv(
  seatEnv: Readonly<Record<string, string>> | undefined,
  callerEnv: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(seatEnv ?? {})) {
    out[name] = value.replace(reference, (_, ref: string) => {
      const found = callerEnv[ref];
      if (found === undefined)
        throw new SandboxError(`seat env ${name} references \${${ref}}, which is not set`);
      return found;
    });
  }
  return out;
}

/** The seat's endpoint: `base_url`, and the value of the variable `api_key_env` names. */
export function seatEndpoint(seat: SeatConfig, env: NodeJS.ProcessEnv): SeatEndpoint {
  return {
    ...(seat.base_url ? { baseUrl: seat.base_url } : {}),
    ...(seat.api_key_env ? { apiKey: { name: seat.api_key_env, value: env[seat.api_key_env] } } : {}),
  };
}

/**
 * A user's JSON config file as an object, or `{}` when it is missing, unreadable or not an object:
 * a launch keeps only a few known keys of it, and a broken user file must not stop the seat.
 */
export function readUserJsonObject(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
