#!/usr/bin/env node
// `npm test`: install, then `check` (codegen, build, typecheck, lint, unit and end-to-end tests,
// generated files up to date), then `test:cli` (the adapters against the real pinned CLIs).
// Output passes through unchanged; the vitest summaries of every package are added up into one
// closing line, "tests: N passed, N failed", because turbo prints one summary per package; the
// names of the failed tests (vitest's "FAIL file > test" lines) are repeated above it, so the end
// of a long CI log says which tests failed.
import { spawn } from "node:child_process";

// install-chromium: the report's headless-browser test needs Debian's Chromium (installed in CI).
const steps = [
  ["install"],
  ["exec", "node", "scripts/install-chromium.mjs"],
  // the tournament queue tests start Debian's redis-server on a loopback port
  ["exec", "node", "scripts/install-redis.mjs"],
  // the completion test runs `debate completion zsh|fish` in Debian's zsh and fish
  ["exec", "node", "scripts/install-shells.mjs"],
  ["run", "check"],
  ["run", "test:cli"],
];
const totals = { passed: 0, failed: 0, skipped: 0 };
const ansi = /\u001b\[[0-9;]*m/g;

// A test file that fails to load counts no failed test; count it as one failure of its package.
const failedFiles = new Map();
const failedTests = new Set();

function count(line) {
  const text = line.replace(ansi, "");
  const prefix = text.match(/^(\S+:) /)?.[1] ?? "";
  const body = text.slice(prefix.length).trim();
  if (/^FAIL\s/.test(body)) failedTests.add(`${prefix} ${body}`.trim());
  if (body.startsWith("Test Files")) {
    failedFiles.set(prefix, Number(body.match(/(\d+) failed/)?.[1] ?? 0));
    return;
  }
  if (!/^Tests\s+\d/.test(body)) return;
  const numberOf = (key) => Number(body.match(new RegExp(`(\\d+) ${key}`))?.[1] ?? 0);
  totals.passed += numberOf("passed");
  totals.skipped += numberOf("skipped");
  totals.failed += numberOf("failed") || (failedFiles.get(prefix) ?? 0);
  failedFiles.delete(prefix);
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/pnpm.mjs", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: new URL("..", import.meta.url),
    });
    // vitest prints its summary on stdout and its "FAIL" lines on stderr; turbo may merge them
    const ends = [child.stdout, child.stderr].map((stream, index) => {
      const out = index === 0 ? process.stdout : process.stderr;
      let rest = "";
      stream.on("data", (chunk) => {
        out.write(chunk);
        const lines = (rest + chunk.toString("utf8")).split("\n");
        rest = lines.pop() ?? "";
        lines.forEach(count);
      });
      return new Promise((done) => stream.on("end", () => done(count(rest))));
    });
    child.on("close", async (code) => {
      await Promise.all(ends);
      resolve(code ?? 1);
    });
  });
}

// Installing must succeed for anything else to mean something; after that every step runs, so
// one CI run shows every failure (check's own turbo run also continues past a failed package).
let status = 0;
for (const step of steps) {
  const code = await run(step);
  if (code !== 0) status = code;
  if (code !== 0 && step[0] !== "run") break;
}
if (failedTests.size > 0) console.log(`\nfailed:\n${[...failedTests].join("\n")}`);
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(status !== 0 ? status : totals.failed > 0 ? 1 : 0);
