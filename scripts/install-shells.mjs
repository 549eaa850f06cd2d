#!/usr/bin/env node
// Installs Debian's zsh and fish for the completion test (test/src/new-help-completion.test.ts):
// `debate completion zsh|fish` is run in the real shells, as bash's is. As root with apt-get (CI, a
// fresh Debian container) missing shells are installed; with sudo in CI too. Otherwise it says what
// to run and exits 1: the test needs them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const SHELLS = ["zsh", "fish"];
const missing = SHELLS.filter((shell) => !existsSync(`/usr/bin/${shell}`));
if (missing.length === 0) {
  console.log(`shells: ${SHELLS.map((s) => `/usr/bin/${s}`).join(", ")}`);
  process.exit(0);
}
const root = process.getuid?.() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
const canSudo = !root && process.env.CI && existsSync("/usr/bin/sudo");
if (!hasApt || (!root && !canSudo)) {
  console.error(
    [
      `shells: ${missing.join(" and ")} not installed, and this script cannot install them here`,
      hasApt ? "(not root, and not CI with sudo)." : "(no apt-get: not a Debian/Ubuntu machine).",
      "The completion test runs `debate completion zsh|fish` in the real shells. Install them with:",
      hasApt
        ? `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(" ")}`
        : `  your system's packages for ${missing.join(" and ")} (in /usr/bin)`,
    ].join("\n"),
  );
  process.exit(1);
}
const sudo = root ? [] : ["sudo"];
const run = (args) => {
  const [cmd, ...rest] = [...sudo, ...args];
  const done = spawnSync(cmd, rest, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (done.status !== 0) {
    console.error(
      `shells: \`${[...sudo, ...args].join(" ")}\` failed (exit ${done.status}); install ${missing.join(" and ")} by hand`,
    );
    process.exit(1);
  }
};
run(["apt-get", "update"]);
run(["apt-get", "install", "-y", "--no-install-recommends", ...missing]);
console.log(`shells: installed ${missing.join(", ")}`);
