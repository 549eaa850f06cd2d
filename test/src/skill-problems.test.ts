import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type WatchEvent, watchDebates } from "@debatekit/cli";
import { type RunEvent, runDebate } from "@debatekit/runner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// Skill problems made visible: the example debate (replay seats, offline) with a skills folder
// holding a broken entry file, a manifest that is not JSON quoting a secret, and a duplicate name.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/ai-review-gate");
const repoSkills = join(repoRoot, "skills");
// No well-known key shape: only the environment variable's name marks it as a secret.
const secret = "plum-velvet-4417-otter";
const secretEnv = { DEBATEKIT_SKILL_TOKEN: secret };

let work: string;
let emptyConfig: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "skill-problems-"));
  // The user's own skills folder stays out of the CLI runs.
  emptyConfig = join(work, "config");
  await mkdir(emptyConfig);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await rm(work, { recursive: true, force: true });
});

/** Writes the broken skills folder at `root`; returns the files each problem names. */
async function writeBrokenSkills(root: string) {
  // Two copies of one good skill: folders load in name order, so the original is the one skipped.
  await cp(join(repoSkills, "evidence-standards"), join(root, "evidence-copy"), { recursive: true });
  await cp(join(repoSkills, "evidence-standards"), join(root, "evidence-standards"), { recursive: true });
  await mkdir(join(root, "bad-entry"));
  await writeFile(
    join(root, "bad-entry", "manifest.json"),
    `${JSON.stringify({
      name: "bad-entry",
      version: "1.0.0",
      description: "An entry file whose frontmatter does not parse.",
      triggers: ["review"],
      applicable_agents: ["debater", "judge"],
      max_context_tokens: 300,
      entry_file: "SKILL.md",
    })}\n`,
  );
  await writeFile(join(root, "bad-entry", "SKILL.md"), `---\ntitle: [unclosed ${secret}\n---\nBody.\n`);
  await mkdir(join(root, "bad-manifest"));
  await writeFile(join(root, "bad-manifest", "manifest.json"), `{ name: "oops", token: "${secret}" \n`);
  return {
    entry: join(root, "bad-entry", "SKILL.md"),
    manifest: join(root, "bad-manifest", "manifest.json"),
    duplicate: join(root, "evidence-standards", "manifest.json"),
  };
}

async function copyExample(name: string): Promise<string> {
  const dir = join(work, name);
  await cp(example, dir, { recursive: true });
  return dir;
}

type SkillProblemEvent = Extract<RunEvent, { type: "skill_problem" }>;

function expectTheProblems(
  problems: SkillProblemEvent[],
  files: Awaited<ReturnType<typeof writeBrokenSkills>>,
) {
  const keys = problems.map((p) => `${p.code} ${p.file} ${p.field ?? "-"}`).sort();
  expect(keys).toEqual(
    [
      `SKILL_DUPLICATE ${files.duplicate} name`,
      `SKILL_ENTRY_FRONTMATTER ${files.entry} entry_file`,
      `SKILL_MANIFEST_NOT_JSON ${files.manifest} -`,
      // The copy's folder is not named after its skill: a warning, it still loads.
      `SKILL_NAME_MISMATCH ${files.duplicate.replace("evidence-standards/", "evidence-copy/")} name`,
    ].sort(),
  );
  expect(JSON.stringify(problems)).not.toContain(secret);
  expect(problems.find((p) => p.code === "SKILL_MANIFEST_NOT_JSON")!.message).toContain("[REDACTED]");
}

describe("skill problems reach the run's events", () => {
  it("runDebate with skillRoots: each problem once per run, with file and field, redacted; the run completes", async () => {
    const dir = await copyExample("run");
    const files = await writeBrokenSkills(join(work, "run-skills"));
    const events: RunEvent[] = [];
    const summary = await runDebate(dir, {
      skillRoots: [join(work, "run-skills")],
      cwd: work,
      env: { ...process.env, ...secretEnv },
      onEvent: (event) => events.push(event),
    });
    expect(summary).toMatchObject({ status: "done", exchange: 5, committed: 10 });
    expect(events.filter((e) => e.type === "seat_started").length).toBeGreaterThan(4);
    expectTheProblems(
      events.filter((e): e is SkillProblemEvent => e.type === "skill_problem"),
      files,
    );
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("watchDebates passes them through, once per run", async () => {
    const parent = join(work, "watched");
    await mkdir(parent);
    const dir = join(parent, "d1");
    await cp(example, dir, { recursive: true });
    const files = await writeBrokenSkills(join(work, "watch-skills"));
    const events: WatchEvent[] = [];
    const watcher = watchDebates([parent], {
      rescanMs: 0,
      run: { skillRoots: [join(work, "watch-skills")], cwd: work, env: { ...process.env, ...secretEnv } },
      onEvent: (event) => events.push(event),
    });
    try {
      await watcher.ready;
      await watcher.idle();
    } finally {
      await watcher.close();
    }
    // A later run (if a file event came late) finds it done and calls no seat: no skills loaded.
    expect(events.find((e) => e.type === "run_finished")).toMatchObject({
      dir,
      status: "done",
      committed: 10,
    });
    const problems = events.filter((e) => e.type === "skill_problem");
    for (const p of problems) expect(p).toMatchObject({ dir, at: expect.any(String) });
    expectTheProblems(problems as unknown as SkillProblemEvent[], files);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});

function start(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: work,
    env: { ...process.env, NO_COLOR: "1", CI: "1", XDG_CONFIG_HOME: emptyConfig, ...secretEnv },
  });
  children.push(child);
  const out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (d) => (out.stdout += d));
  child.stderr!.on("data", (d) => (out.stderr += d));
  const exit = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  return { child, out, exit };
}

/** Polls until `check` holds (a loaded CI runner may take seconds to start a node process). */
async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the CLI shows skill problems", () => {
  it("debate run prints one warning line per problem on stderr, naming file and field, and completes", async () => {
    // The debate's own skills/ folder is one of the default roots (no --root option on `run`).
    const dir = await copyExample("cli-run");
    const files = await writeBrokenSkills(join(dir, "skills"));
    const run = start(["run", dir]);
    expect(await run.exit).toBe(0);
    expect(run.out.stdout).toContain("done: complete after 5 exchange(s)");
    const lines = run.out.stderr.split("\n").filter((l) => l.startsWith("skills: "));
    expect(lines).toHaveLength(4);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^skills: error SKILL_ENTRY_FRONTMATTER ${files.entry} \\(entry_file\\): entry file frontmatter is not valid YAML`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^skills: error SKILL_DUPLICATE ${files.duplicate} \\(name\\): skill name "evidence-standards" is already used`,
        ),
      ),
    );
    expect(lines).toContainEqual(expect.stringContaining(`SKILL_MANIFEST_NOT_JSON ${files.manifest}: `));
    expect(run.out.stderr + run.out.stdout).not.toContain(secret);
  });

  it("debate run --json keeps stdout to the summary and still warns on stderr", async () => {
    const dir = await copyExample("cli-run-json");
    const files = await writeBrokenSkills(join(dir, "skills"));
    const run = start(["run", dir, "--json", "--exchanges", "1"]);
    expect(await run.exit).toBe(0);
    expect(JSON.parse(run.out.stdout)).toMatchObject({ dir, status: "done", exchange: 1 });
    expect(run.out.stderr).toContain(`skills: error SKILL_ENTRY_FRONTMATTER ${files.entry} (entry_file): `);
    expect(run.out.stderr).not.toContain(secret);
  });

  it("debate watch --json prints them as skill_problem events", async () => {
    const parent = join(work, "cli-watch");
    await mkdir(parent);
    const dir = join(parent, "d1");
    await cp(example, dir, { recursive: true });
    const files = await writeBrokenSkills(join(dir, "skills"));
    const watch = start(["watch", parent, "--json", "--rescan", "0"]);
    const events = () =>
      watch.out.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as WatchEvent);
    await until("the run to finish", () => events().some((e) => e.type === "run_finished"));
    watch.child.kill("SIGTERM");
    expect(await watch.exit).toBe(0);
    expect(events().find((e) => e.type === "run_finished")).toMatchObject({ dir, status: "done" });
    const problems = events().filter((e) => e.type === "skill_problem");
    expectTheProblems(problems as unknown as SkillProblemEvent[], files);
    expect(watch.out.stdout + watch.out.stderr).not.toContain(secret);
  });
});
