// Installs Debian packages a test needs and the machine lacks (scripts/install-redis.mjs,
// scripts/install-shells.mjs). As root with apt-get (CI, a fresh Debian container) they are
// installed; with sudo in CI too. Otherwise it says what to run and exits 1: the tests need them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Makes sure every `packages[i].bin` exists, installing the missing packages with apt-get.
 * `label` starts each line printed; `why` says which tests need them. Returns the installed names.
 */
export function ensureDebianPackages({ label, packages, why }) {
  const missing = packages.filter((p) => !p.bins.some((bin) => existsSync(bin)));
  if (missing.length === 0) return [];
  const names = missing.map((p) => p.name);
  const root = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  const canSudo = !root && process.env.CI && existsSync("/usr/bin/sudo");
  if (!hasApt || (!root && !canSudo)) {
    console.error(
      [
        `${label}: ${names.join(" and ")} not installed, and this script cannot install it here`,
        hasApt ? "(not root, and not CI with sudo)." : "(no apt-get: not a Debian/Ubuntu machine).",
        `${why} Install with:`,
        hasApt
          ? `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${names.join(" ")}`
          : `  your system's packages for ${names.join(" and ")} (at ${missing.map((p) => p.bins[0]).join(", ")})`,
      ].join("\n"),
    );
    process.exit(1);
  }
  const sudo = root ? [] : ["sudo"];
  const run = (args) => {
    const [cmd, ...rest] = [...sudo, ...args];
    const done = spawnSync(cmd, rest, {
      stdio: "inherit",
      // RUNLEVEL=1 and policy-rc.d-free containers: a package does not start a system service.
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive", RUNLEVEL: "1" },
    });
    if (done.status !== 0) {
      console.error(
        `${label}: \`${[...sudo, ...args].join(" ")}\` failed (exit ${done.status}); install ${names.join(" and ")} by hand`,
      );
      process.exit(1);
    }
  };
  run(["apt-get", "update"]);
  run(["apt-get", "install", "-y", "--no-install-recommends", ...names]);
  return names;
}
