import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./workspace.js";

export { until } from "./watch-helpers.js";

/** The built `debate` binary of this checkout. */
export const debateBin = join(repoRoot, "apps/debate/dist/bin.js");

/** What one finished command printed and returned. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A newcomer's machine in a temp folder: an empty home (no user config, no user skills) and an
 * unrelated working folder far from the repository.
 */
export async function newcomer(
  prefix = "newcomer-",
): Promise<{ root: string; cwd: string; env: NodeJS.ProcessEnv }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const home = join(root, "home");
  const cwd = join(root, "somewhere", "else");
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    NO_COLOR: "1",
    CI: "1",
    // The machine's certificate authorities (a proxy's CA) are the machine's, not the user's setup.
    ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
  };
  return { root, cwd, env };
}

/** Runs the built `debate` (or the given executable) in `cwd` and waits for it. */
export function debate(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; executable?: string; input?: string },
): Ran {
  const [cmd, argv] = options.executable
    ? [options.executable, args]
    : [process.execPath, [debateBin, ...args]];
  const run = spawnSync(cmd, argv, {
    cwd: options.cwd,
    env: options.env,
    encoding: "utf8",
    timeout: 120_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Packs `@debatekit/cli` (or the package `only` names) and every workspace package it needs into
 * tarballs (as a release would publish them) and installs them globally into `prefix`, with a user
 * config of its own. Returns the path of the installed `debate`.
 */
export async function installPacked(
  prefix: string,
  env: NodeJS.ProcessEnv,
  only = "@debatekit/cli",
): Promise<string> {
  const packs = join(prefix, "..", "packs");
  const pack = spawnSync(
    process.execPath,
    [join(repoRoot, "scripts/pnpm.mjs"), "--filter", `${only}...`, "pack", "--pack-destination", packs],
    { cwd: repoRoot, encoding: "utf8", env: process.env },
  );
  if (pack.status !== 0) throw new Error(`pnpm pack failed: ${pack.stderr}`);
  const tarballs = (await readdir(packs)).filter((f) => f.endsWith(".tgz")).map((f) => join(packs, f));
  const userconfig = join(prefix, "..", "npmrc");
  const install = spawnSync(
    "npm",
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--userconfig",
      userconfig,
      ...tarballs,
    ],
    // The user's npm cache keeps the third-party downloads fast; nothing else of the user's setup.
    {
      cwd: join(prefix, ".."),
      encoding: "utf8",
      timeout: 240_000,
      env: { ...env, npm_config_cache: join(process.env.HOME ?? tmpdir(), ".npm") },
    },
  );
  if (install.status !== 0) throw new Error(`npm install -g failed (${install.status}): ${install.stderr}`);
  return join(prefix, "bin", "debate");
}

/** The README's command that installs `debate` from a clone: the backticked span that packs the tarballs. */
export async function cloneInstallCommand(): Promise<string> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const span = /`(node scripts\/pnpm\.mjs [^`]*pack[^`]*)`/.exec(readme)?.[1];
  if (!span) throw new Error("README.md has no `node scripts/pnpm.mjs ... pack ...` install command");
  return span.replace(/\s*\n\s*/g, " ");
}

/**
 * Runs the README's clone install command as written, with `sh` in the repository's root (where it
 * says to run it), into the clean global `prefix`; its `packs/` folder is removed before and after.
 * Returns the path of the installed `debate`.
 */
export async function installAsReadmeSays(prefix: string): Promise<string> {
  const command = await cloneInstallCommand();
  const packs = join(repoRoot, "packs");
  await rm(packs, { recursive: true, force: true });
  try {
    const install = spawnSync("sh", ["-c", command], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 280_000,
      env: {
        ...process.env,
        npm_config_prefix: prefix,
        npm_config_userconfig: join(prefix, "..", "npmrc"),
        npm_config_audit: "false",
        npm_config_fund: "false",
      },
    });
    if (install.status !== 0) throw new Error(`${command} failed (${install.status}): ${install.stderr}`);
  } finally {
    await rm(packs, { recursive: true, force: true });
  }
  return join(prefix, "bin", "debate");
}

/** True when something is at `path`. */
export const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** `debate new` of a formal debate whose three seats are manual, in `cwd/<slug>`. */
export function newManualDebate(
  motion: string,
  slug: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; executable?: string },
): Ran {
  const seats = ["--proposition", "manual", "--opposition", "manual", "--judge", "manual"];
  return debate(["new", motion, ...seats, "--slug", slug, "--dir", "."], options);
}

/** The offline example's recorded answer of a seat (valid for the formal format). */
export async function recordedAnswer(exchange: number, role: string): Promise<string> {
  const lines = (await readFile(join(repoRoot, "examples/ai-review-gate/replay.jsonl"), "utf8"))
    .trim()
    .split("\n");
  const entry = lines
    .map((l) => JSON.parse(l) as { exchange: number; role: string; text: string })
    .find((e) => e.exchange === exchange && e.role === role);
  return entry!.text;
}

/** The first ```sh block under the README's `## Start here`, one command per line (comments dropped). */
export async function startHere(): Promise<string[]> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const section = readme.split(/^## Start here\b.*$/m)[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}
