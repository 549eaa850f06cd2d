#!/usr/bin/env node
// Installs the pinned AI CLIs the conformance suite runs against, into <repo>/.cache/clis/<pkg>@<version>.
// Plain Node ESM (no build step) so it runs before anything is compiled, and from `pnpm test:cli`.
// Each CLI gets its own npm prefix: never part of the product's dependencies, and a version bump
// is a new folder instead of an in-place upgrade. Idempotent: a folder whose binary exists is skipped.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** Where the pinned CLIs live (ignored by git through /.cache/). */
export const cliCacheDir = process.env.DEBATEKIT_CLI_CACHE ?? join(repoRoot, ".cache", "clis");

/** The pinned CLIs: adapter name -> npm package, version and the binary it provides. */
export const pinnedClis = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.330", bin: "claude" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
  copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
  qwen: { pkg: "@qwen-code/qwen-code", version: "0.24.4", bin: "qwen" },
  kilo: { pkg: "@kilocode/cli", version: "7.7.7", bin: "kilo" },
};

/** The install folder of one pinned CLI. */
export function cliPrefix(name) {
  const cli = pinnedClis[name];
  if (!cli) throw new Error(`unknown CLI "${name}"; expected one of ${Object.keys(pinnedClis).join(", ")}`);
  return join(cliCacheDir, `${cli.pkg.replace("/", "+")}@${cli.version}`);
}

/** Absolute path of the installed binary of one pinned CLI (it may not exist yet). */
export function cliBinPath(name) {
  return join(cliPrefix(name), "node_modules", ".bin", pinnedClis[name].bin);
}

/** Paths of every pinned CLI binary, by adapter name. */
export function cliBinPaths() {
  return Object.fromEntries(Object.keys(pinnedClis).map((name) => [name, cliBinPath(name)]));
}

function isInstalled(name) {
  const prefix = cliPrefix(name);
  const manifest = join(prefix, "node_modules", ...pinnedClis[name].pkg.split("/"), "package.json");
  if (!existsSync(cliBinPath(name)) || !existsSync(manifest)) return false;
  return JSON.parse(readFileSync(manifest, "utf8")).version === pinnedClis[name].version;
}

/**
 * Installs every pinned CLI that is not there yet (or only `names`); returns per CLI the binary
 * path, whether it was installed now and how long it took.
 */
export function installClis(
  names = Object.keys(pinnedClis),
  log = (line) => process.stderr.write(`${line}\n`),
) {
  const results = {};
  for (const name of names) {
    const cli = pinnedClis[name];
    if (isInstalled(name)) {
      results[name] = { bin: cliBinPath(name), installed: false, ms: 0 };
      continue;
    }
    const prefix = cliPrefix(name);
    // Install into a temp folder then rename, so an interrupted install never looks complete.
    const staging = `${prefix}.partial-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const started = Date.now();
    log(`installing ${cli.pkg}@${cli.version} into ${prefix}`);
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        staging,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        // claude-code and opencode-ai download/link their native binary in a postinstall script.
        "--ignore-scripts=false",
        `${cli.pkg}@${cli.version}`,
      ],
      { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, npm_config_yes: "true" } },
    );
    if (npm.status !== 0) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`npm install ${cli.pkg}@${cli.version} failed with exit code ${npm.status}`);
    }
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(dirname(prefix), { recursive: true });
    renameSync(staging, prefix);
    if (!isInstalled(name))
      throw new Error(`${cli.pkg}@${cli.version} installed but ${cliBinPath(name)} is missing`);
    results[name] = { bin: cliBinPath(name), installed: true, ms: Date.now() - started };
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const names = process.argv.slice(2);
  const results = installClis(names.length > 0 ? names : undefined);
  for (const [name, r] of Object.entries(results)) {
    process.stderr.write(
      `${name}: ${r.installed ? `installed in ${r.ms} ms` : "already installed"} ${r.bin}\n`,
    );
  }
  process.stderr.write(`pinned CLIs ready in ${Date.now() - started} ms\n`);
}
