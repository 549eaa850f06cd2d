import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/ai-review-gate");

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-run-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A copy of the example whose recorded answers each take `delayMs`, so a run lasts a while. */
async function slowExample(name: string, delayMs: number): Promise<string> {
  const dir = join(work, name);
  await cp(example, dir, { recursive: true });
  const lines = (await readFile(join(dir, "replay.jsonl"), "utf8")).trim().split("\n");
  const slowed = lines.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: delayMs }));
  await writeFile(join(dir, "replay.jsonl"), `${slowed.join("\n")}\n`);
  return dir;
}

function start(
  args: string[],
  env: Record<string, string> = {},
): {
  child: ChildProcess;
  result: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: "1", CI: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const result = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on("close", (code) => done({ code, stdout, stderr })),
  );
  return { child, result };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Polls until `check` holds (a loaded CI runner may take seconds to start a node process). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("debate run", () => {
  it("runs the example offline with --fresh, prints the scores and where the files are, leaves the example untouched", () => {
    const before = spawnSync("git", ["status", "--porcelain", "--", "examples"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    const run = spawnSync(process.execPath, [bin, "run", example, "--fresh"], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", CI: "1" },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("done: complete after 5 exchange(s)");
    expect(run.stdout).toContain("proposition +0.20 over 7 arguments");
    expect(run.stdout).toContain("opposition  -0.65 over 7 arguments");
    const files = /files: (.+)/.exec(run.stdout)?.[1];
    expect(files).toBeDefined();
    expect(files).not.toContain(example);
    expect(run.stdout).not.toMatch(/\u001b\[/); // NO_COLOR
    const after = spawnSync("git", ["status", "--porcelain", "--", "examples"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(after.stdout).toBe(before.stdout);
  });

  it("lets exactly one of two simultaneous runs advance a folder; the other names the holder and fails", async () => {
    const dir = await slowExample("locked", 150);
    const log = join(work, "locked.log");
    const a = start(["run", dir], { DEBATEKIT_REPLAY_LOG: log });
    const b = start(["run", dir], { DEBATEKIT_REPLAY_LOG: log });
    const results = await Promise.all([a.result, b.result]);
    const winners = results.filter((r) => r.code === 0);
    const losers = results.filter((r) => r.code !== 0);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0]!.code).toBe(1);
    expect(losers[0]!.stderr).toMatch(
      /^debate: .* is being advanced by pid \d+ on .+ \("debate run .+"\) since .+; wait for it/m,
    );
    // Every recorded answer was asked once: 15 steps and the judge's one retry.
    const asked = (await readFile(log, "utf8")).trim().split("\n");
    expect(asked).toHaveLength(16);
    expect(new Set(asked.map((l) => JSON.parse(l).pid)).size).toBe(1);
    expect(winners[0]!.stdout).toContain("done: complete after 5 exchange(s)");
  });

  it("with --wait, the second run waits for the first and then finds nothing left to do", async () => {
    const dir = await slowExample("waiting", 60);
    const a = start(["run", dir]);
    await until("the first run to hold the lock", () => exists(join(dir, ".debate/lock")));
    const b = start(["run", dir, "--wait"]);
    const [ra, rb] = await Promise.all([a.result, b.result]);
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    expect(rb.stderr).toMatch(/waiting for pid \d+/);
    expect(rb.stdout).toContain("done: complete after 5 exchange(s)");
  });

  it("stops on SIGINT with exit 130, releases the lock, and the folder resumes to completion", async () => {
    const dir = await slowExample("interrupted", 200);
    const run = start(["run", dir]);
    // Mid-run: it holds the lock and has journaled an answer (15 answers of 200 ms each to go).
    await until("the run under way", async () => {
      const journal = await readdir(join(dir, ".debate/journal")).catch(() => []);
      return journal.length > 0 && (await exists(join(dir, ".debate/lock")));
    });
    run.child.kill("SIGINT");
    const stopped = await run.result;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain("SIGINT: stopping the seats");
    expect(await exists(join(dir, ".debate/lock"))).toBe(false);
    const resumed = await start(["run", dir]).result;
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("proposition +0.20 over 7 arguments");
    expect((await readdir(join(dir, "arguments"))).length).toBe(14);
  });

  it("stops at --exchanges without changing debate.md's exchanges, and status shows the table", async () => {
    const dir = join(work, "partial");
    await cp(example, dir, { recursive: true });
    const run = await start(["run", dir, "--exchanges", "2", "--json"]).result;
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ status: "done", exchange: 2, phase: "awaiting_arguments", committed: 4 });
    expect(await readFile(join(dir, "debate.md"), "utf8")).toMatch(/^exchanges: 5$/m);
    const status = await start(["status", dir]).result;
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /^DEBATE\s+PHASE\s+EXCHANGE\s+PROP\s+OPP\s+RESULT\s+JUDGES\s+COST\s+NOW\s+LAST ERROR$/m,
    );
    // Replay seats call no model: their calls are on record, free.
    expect(status.stdout).toMatch(
      /partial\s+awaiting_arguments\s+2\/5\s+[+-]\d\.\d\d\s+[+-]\d\.\d\d\s+-\s+-\s+\$0\b/,
    );
    expect(status.stdout).toMatch(/^SEAT\s+CALLS\s+INPUT\s+CACHED\s+OUTPUT\s+COST\s+NOTE$/m);
    expect(status.stdout).toMatch(/^judge\s+2\s+0\s+0\s+0\s+\$0$/m);
    expect(status.stdout).toMatch(/^total\s+6\s+0\s+0\s+0\s+\$0$/m);
    const json = JSON.parse((await start(["status", dir, "--json"]).result).stdout);
    expect(json[0]).toMatchObject({ debate_id: "ai-review-gate", exchange: 2, exchanges: 5 });
    expect(json[0].usage.total).toMatchObject({ calls: 6, cost_usd: 0, unknown_cost_calls: 0 });
    expect(Object.keys(json[0].usage.seats).sort()).toEqual(["judge", "opposition", "proposition"]);
    // The ledger beside the journal says the same.
    const ledger = JSON.parse(await readFile(join(dir, ".debate/ledger.json"), "utf8"));
    expect(ledger.total).toEqual(json[0].usage.total);
  });
});

describe("debate new", () => {
  it("creates a folder named from the motion that status lists", async () => {
    const made = await start(["new", "This house would ban tabs in YAML", "--dir", join(work, "debates")])
      .result;
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/created .*ban-tabs-in-yaml\/debate\.md/);
    const text = await readFile(join(work, "debates/ban-tabs-in-yaml/debate.md"), "utf8");
    expect(text).toContain("This house would ban tabs in YAML");
    expect(text).toMatch(/adapter: claude/);
    const again = await start(["new", "This house would ban tabs in YAML", "--dir", join(work, "debates")])
      .result;
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^debate: .*already exists/);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--isolation off writes the opt-in on every seat; the default writes nothing", async () => {
    const off = await start([
      "new",
      "This house would share setups",
      "--isolation",
      "off",
      "--dir",
      join(work, "debates"),
    ]).result;
    expect(off.code).toBe(0);
    const text = await readFile(join(work, "debates/share-setups/debate.md"), "utf8");
    expect(text.match(/isolation: off/g)).toHaveLength(3);
    await start(["new", "This house would keep setups apart", "--dir", join(work, "debates")]).result;
    const plain = await readFile(join(work, "debates/keep-setups-apart/debate.md"), "utf8");
    expect(plain).not.toContain("isolation");
    const bad = await start(["new", "x z", "--isolation", "maybe", "--dir", join(work, "debates")]).result;
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--isolation");
  });

  it("--judges makes a panel; a judge that is a debater's own CLI is refused unless allowed", async () => {
    const made = await start([
      "new",
      "This house would vote by panel",
      "--judges",
      "codex,opencode,copilot",
      "--swap",
      "--dir",
      join(work, "debates"),
    ]).result;
    expect(made.code).toBe(0);
    const text = await readFile(join(work, "debates/vote-by-panel/debate.md"), "utf8");
    expect(text).toMatch(
      /judges:\n {2}panel:\n {4}- adapter: codex\n {4}- adapter: opencode\n {4}- adapter: copilot\n {2}swap: true/,
    );
    expect(text).not.toMatch(/^ {2}judge:/m);
    // The default judge is of another family than both debaters.
    await start(["new", "This house would pick", "--proposition", "codex", "--dir", join(work, "debates")])
      .result;
    expect(await readFile(join(work, "debates/pick/debate.md"), "utf8")).toMatch(
      /panel:\n {4}- adapter: claude/,
    );
    const self = await start(["new", "x self", "--judges", "codex,claude", "--dir", join(work, "debates")])
      .result;
    expect(self.code).toBe(1);
    expect(self.stderr).toMatch(
      /SELF_JUDGING.*the judge claude is also the proposition.*--allow-self-judging/,
    );
    const allowed = await start([
      "new",
      "x self",
      "--judges",
      "codex,claude",
      "--allow-self-judging",
      "--dir",
      join(work, "debates"),
    ]).result;
    expect(allowed.code).toBe(0);
  });

  it("status shows a panel's reliability figures (table and --json)", async () => {
    const dir = join(work, "panel");
    await cp(join(example, "..", "judge-panel"), dir, { recursive: true });
    expect((await start(["run", dir]).result).code).toBe(0);
    const status = await start(["status", dir]).result;
    expect(status.stdout).toMatch(/complete\s+2\/2\s+\+0\.65\s+-0\.65\s+\S+\s+3 · α 0\.46 · flip 0\.33/);
    const json = JSON.parse((await start(["status", dir, "--json"]).result).stdout);
    expect(json[0].reliability).toMatchObject({ judges: 3, judged_steps: 2, degraded_steps: 0 });
    expect(json[0].reliability.figures).toMatchObject({ agreement: 0.459, flip_rate: 0.333 });
  });

  it("rejects an unknown adapter with the flag named", async () => {
    const bad = await start(["new", "x y", "--judge", "nope", "--dir", join(work, "debates")]).result;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--judge nope: no adapter of that name");
  });
});
