#!/usr/bin/env node
// Installs Debian's redis-server for the tournament queue tests (test/src/tournament-queue.test.ts)
// and `pnpm bench tournament`: they start their own redis-server on a free loopback port, never a
// system service. As root with apt-get (CI, a fresh Debian container) a missing redis-server is
// installed; with sudo in CI too. Otherwise it says what to run and exits 1: the queue tests need it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];
const found = CANDIDATES.find((p) => existsSync(p));
if (found) {
  console.log(`redis-server: ${found} (${execFileSync(found, ["--version"], { encoding: "utf8" }).trim()})`);
  process.exit(0);
}
const root = process.getuid?.() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
const canSudo = !root && process.env.CI && existsSync("/usr/bin/sudo");
if (!hasApt || (!root && !canSudo)) {
  console.error(
    [
      "redis-server: not installed, and this script cannot install it here",
      hasApt ? "(not root, and not CI with sudo)." : "(no apt-get: not a Debian/Ubuntu machine).",
      "The tournament queue tests need Debian's redis-server (7.x). Install it with:",
      hasApt
        ? "  sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server"
        : "  your system's package for redis-server 7 (it must be on PATH as /usr/bin/redis-server or /usr/local/bin/redis-server)",
    ].join("\n"),
  );
  process.exit(1);
}
const sudo = root ? [] : ["sudo"];
const run = (args) => {
  const [cmd, ...rest] = [...sudo, ...args];
  const done = spawnSync(cmd, rest, {
    stdio: "inherit",
    // RUNLEVEL=1 and policy-rc.d-free containers: the package does not start a system service.
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive", RUNLEVEL: "1" },
  });
  if (done.status !== 0) {
    console.error(
      `redis-server: \`${[...sudo, ...args].join(" ")}\` failed (exit ${done.status}); install redis-server by hand`,
    );
    process.exit(1);
  }
};
run(["apt-get", "update"]);
run(["apt-get", "install", "-y", "--no-install-recommends", "redis-server"]);
console.log(execFileSync("/usr/bin/redis-server", ["--version"], { encoding: "utf8" }).trim());
