#!/usr/bin/env node
// Runs the pnpm version pinned in package.json#packageManager, so a fresh machine with only
// Node and npm needs nothing installed by hand: an existing pnpm of that exact version is used
// as is, otherwise `npx` fetches that version from the npm registry (cached after the first run).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
const { packageManager } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const version = packageManager.replace(/^pnpm@/, "");

function installedPnpm() {
  try {
    return execFileSync("pnpm", ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", COREPACK_ENABLE_STRICT: "0" };
const args = process.argv.slice(2);
const [cmd, cmdArgs] =
  installedPnpm() === version ? ["pnpm", args] : ["npx", ["-y", `pnpm@${version}`, ...args]];
const result = spawnSync(cmd, cmdArgs, { stdio: "inherit", env });
process.exit(result.status ?? 1);
