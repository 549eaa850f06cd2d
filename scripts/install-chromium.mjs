#!/usr/bin/env node
// Installs Debian's Chromium for the report's headless-browser test (test/src/report-browser.test.ts).
// In CI (CI set) a missing browser is installed with apt-get and a failure fails the step; elsewhere
// it only says what to run, since installing system packages is the machine owner's call.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const found = CANDIDATES.find((p) => existsSync(p));
if (found) {
  console.log(`chromium: ${found}`);
  process.exit(0);
}
if (!process.env.CI) {
  console.log("chromium: not installed; the report's browser test will be skipped. Install it with:");
  console.log("  sudo apt-get update && sudo apt-get install -y chromium");
  process.exit(0);
}
const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
const run = (args) => {
  const [cmd, ...rest] = [...sudo, ...args];
  const done = spawnSync(cmd, rest, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (done.status !== 0) throw new Error(`${args.join(" ")} failed (${done.status})`);
};
run(["apt-get", "update"]);
run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"]);
console.log(execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" }).trim());
