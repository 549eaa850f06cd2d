#!/usr/bin/env node
// Installs Debian's redis-server for the tournament queue tests (test/src/tournament-queue.test.ts)
// and `pnpm bench tournament`: they start their own redis-server on a free loopback port, never a
// system service.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ensureDebianPackages } from "./lib/debian-packages.mjs";

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];
ensureDebianPackages({
  label: "redis-server",
  packages: [{ name: "redis-server", bins: CANDIDATES }],
  why: "The tournament queue tests need Debian's redis-server (7.x).",
});
const found = CANDIDATES.find((p) => existsSync(p));
console.log(`redis-server: ${found} (${execFileSync(found, ["--version"], { encoding: "utf8" }).trim()})`);
