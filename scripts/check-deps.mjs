#!/usr/bin/env node
// Fails on any import that breaks the rules of .dependency-cruiser.cjs (cycles, layers, faces over
// actions), printing each one. It reads the sources of every workspace package; a package import is
// resolved to the package's built entry, so it runs after the build (root `check`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const folders = ["packages", "packages/adapters", "apps"];

/** The `src` folder of every workspace package, plus the test and bench sources. */
function sourceFolders() {
  const found = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}/src`),
  );
  return [...found, "test/src", "bench/src"].filter((folder) => existsSync(join(root, folder)));
}

const depcruise = join(root, "node_modules", ".bin", "depcruise");
const result = spawnSync(
  depcruise,
  [...sourceFolders(), "--config", ".dependency-cruiser.cjs", "--output-type", "err"],
  { cwd: root, stdio: "inherit" },
);
if (result.error) {
  console.error(`check-deps: could not run depcruise: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
