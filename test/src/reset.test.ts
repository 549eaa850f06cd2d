import { spawn } from "node:child_process";
import { cp, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Starting over (item 7): `debate reset` and `run --fresh`, through the built binary on real folders.
const example = join(repoRoot, "examples/ai-review-gate");
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("reset-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const statusRow = (dir: string) => JSON.parse(debate(["status", dir, "--json"], { cwd, env }).stdout)[0];
/** scores.json without the times of the judgments (a second run judges at another time). */
const scoresOf = async (dir: string) =>
  (await readFile(join(cwd, dir, "scores.json"), "utf8")).replace(/"scored_at": "[^"]*"/g, "");

async function finished(name: string): Promise<void> {
  await cp(example, join(cwd, name), { recursive: true });
  const ran = debate(["run", name], { cwd, env });
  expect(ran.code, ran.stderr).toBe(0);
}

describe("debate reset", () => {
  it("takes a finished debate back to an exchange, keeps what it undid, and a run redoes it the same", async () => {
    await finished("to-two");
    const before = await readFile(join(cwd, "to-two/debate.md"), "utf8");
    const scores = await scoresOf("to-two");
    const reset = debate(["reset", "to-two", "--to", "2"], { cwd, env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(
      /^reset to-two to exchange 2: \d+ files taken out \(kept in to-two\/\.debate\/reset\/.+\)\n$/,
    );
    expect(statusRow("to-two")).toMatchObject({ phase: "awaiting_arguments", exchange: 2 });
    const args = await readdir(join(cwd, "to-two/arguments"));
    expect(args.every((f) => /_00[01]/.test(f))).toBe(true);
    expect(args.length).toBeGreaterThan(0);
    // Motion, seats and settings stay; only the marker and the cumulative scores moved.
    const after = await readFile(join(cwd, "to-two/debate.md"), "utf8");
    const changed = after.split("\n").filter((line, i) => line !== before.split("\n")[i]);
    // (A finished debate's `current_phase: complete` goes back to awaiting_arguments.)
    expect(
      changed.every((l) =>
        /^(current_exchange|current_phase: awaiting_arguments$|\s+(proposition|opposition): \{ total)/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(after.slice(after.indexOf("# Motion"))).toBe(before.slice(before.indexOf("# Motion")));
    // What was undone is kept, not deleted.
    const kept = join(cwd, "to-two", reset.stdout.match(/kept in to-two\/(.+)\)/)![1]!);
    expect(await readdir(join(kept, "arguments"))).toContain("prop_004.md");
    expect(await readFile(join(kept, "debate.md"), "utf8")).toBe(before);
    // The same recorded answers lead to the same end.
    expect(debate(["run", "to-two"], { cwd, env }).code).toBe(0);
    expect(await scoresOf("to-two")).toBe(scores);
  });

  it("takes a debate back to its start, and refuses an exchange it has not reached with one line", async () => {
    await finished("to-start");
    expect(debate(["reset", "to-start"], { cwd, env }).code).toBe(0);
    expect(statusRow("to-start")).toMatchObject({ phase: "awaiting_arguments", exchange: 0 });
    expect(statusRow("to-start").winner).toBeUndefined();
    expect(await readdir(join(cwd, "to-start/arguments"))).toEqual([]);
    expect(await readdir(join(cwd, "to-start/.debate"))).not.toContain("journal-stale");
    const beyond = debate(["reset", "to-start", "--to", "3"], { cwd, env });
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toBe(
      "debate: --to 3: expected an exchange from 0 to 0 (the debate is at exchange 0)\n",
    );
  });

  it("takes a crossfire debate back to a round; the run redoes the rounds after it", async () => {
    await cp(join(repoRoot, "examples/crossfire-grpc"), join(cwd, "cross"), { recursive: true });
    expect(debate(["run", "cross"], { cwd, env }).code).toBe(0);
    const verdict = await readFile(join(cwd, "cross/verdict.md"), "utf8");
    const reset = debate(["reset", "cross", "--to", "2"], { cwd, env });
    expect(reset.stdout).toMatch(/^reset cross to round 2: /);
    expect(statusRow("cross")).toMatchObject({ phase: "awaiting_proposer" });
    expect(await readdir(join(cwd, "cross"))).not.toContain("verdict.md");
    expect(debate(["run", "cross"], { cwd, env }).code).toBe(0);
    expect(await readFile(join(cwd, "cross/verdict.md"), "utf8")).toBe(verdict);
  });

  it("run --fresh starts a finished debate over in a copy, leaving the original as it was", async () => {
    await finished("done");
    const original = await readFile(join(cwd, "done/debate.md"), "utf8");
    const fresh = debate(["run", "done", "--fresh", "--json"], { cwd, env });
    expect(fresh.code, fresh.stderr).toBe(0);
    const summary = JSON.parse(fresh.stdout);
    expect(summary.dir).not.toBe(join(cwd, "done"));
    // Five exchanges were run again in the copy (a copy that went on would have had nothing to do).
    const journal = await readdir(join(summary.dir, ".debate/journal"));
    expect(journal.filter((f) => f.includes("-judgment-")).length).toBeGreaterThanOrEqual(5);
    expect(await readFile(join(cwd, "done/debate.md"), "utf8")).toBe(original);
    await rm(join(summary.dir, ".."), { recursive: true, force: true });
  });
});

describe("a closed pipe", () => {
  it("`debate <cmd> --help` into a reader that stops early exits quietly", async () => {
    for (const args of [["--help"], ["run", "--help"]]) {
      const child = spawn(process.execPath, [debateBin, ...args], { cwd, env });
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (d) => (stderr += d));
      const code = await new Promise((done) => child.on("close", done));
      expect(stderr).toBe("");
      expect(code).toBe(0);
    }
  });
});
