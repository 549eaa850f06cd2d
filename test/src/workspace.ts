import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { allowFolder, readFolderPrograms } from "@debatekit/files";

/** The repository root. */
export const repoRoot = new URL("../../", import.meta.url).pathname;

/**
 * `debate tournament new <name>` arguments: a two-player crossfire tournament of one round per
 * debate (4 matches) on the offline example's motions and replay recordings.
 */
export function replayTournamentArgs(name: string): string[] {
  const example = join(repoRoot, "examples/tournament-replay");
  return [
    "tournament",
    "new",
    name,
    "--motions",
    join(example, "motions.jsonl"),
    "--seats",
    "replay:alice,replay:bob",
    "--judges",
    "replay",
    "--format",
    "crossfire",
    "--rounds",
    "1",
    "--replay",
    join(example, "recordings"),
  ];
}

export interface WorkspacePackage {
  dir: string;
  manifest: {
    name: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    [key: string]: unknown;
  };
}

/** Every publishable package of the workspace (private ones excluded). */
export function publishablePackages(): WorkspacePackage[] {
  const dirs = ["packages", "packages/adapters", "apps"].flatMap((parent) =>
    readdirSync(join(repoRoot, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(repoRoot, parent, d.name, "package.json")))
      .map((d) => join(repoRoot, parent, d.name)),
  );
  return dirs
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter((p) => !p.manifest.private);
}

/**
 * Allows the programs a debate or tournament folder names, as `debate allow <dir>` does: recorded
 * under `env`'s XDG_STATE_HOME (else its HOME's ~/.local/state), outside the folder.
 */
export async function allowFolderPrograms(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await allowFolder(await readFolderPrograms(dir, { env }), env, new Date());
}

/** Every regular file under `dir` (relative path -> sha256 of its content; links not followed), to compare a folder before and after. */
export async function folderFingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[relative(dir, file)] = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  }
  return out;
}

/** Runs the built `debate` binary with only PATH, `home` as HOME and `env` from the environment; waits for it. */
export function runDebateBin(
  args: string[],
  options: { cwd: string; home: string; timeoutMs?: number; env?: NodeJS.ProcessEnv },
): { code: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), ...args], {
    cwd: options.cwd,
    encoding: "utf8",
    env: { ...options.env, PATH: process.env.PATH ?? "", HOME: options.home, NO_COLOR: "1", CI: "1" },
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** What a run of the built `debate` binary left: its exit code and what it printed. */
export interface DebateRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `debate` binary with `args` in `cwd` without blocking this process (a loopback model
 * server in it must answer); stdin is closed.
 */
export function runDebateAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<DebateRun> {
  const child = spawn(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), ...args], { cwd, env });
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}
