import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import { validateGateResult } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bugCritique, buggySum, bugJudgment, gitEnv, goodSum } from "./gate-fixtures.js";
import { repoRoot, runDebateAsync } from "./workspace.js";

// The change a gate reviews cannot change how it is reviewed: a real git repository whose main holds
// the gate's policy, a critic prompt, a config file naming a skill folder and a project skill, and a
// pull request branch that adds a real bug and also edits the policy, replaces the critic's prompt,
// edits the config's skill, plants a project skill and adds, in the folder the gate runs from
// (`app/`), a JS config that writes a marker file when run. `debate gate` (the built CLI) must
// review it with main's settings.
const clean = JSON.stringify({ findings: [], recommendation: "A", agree: true });
const judgeClean = JSON.stringify({ classifications: [], recommendation: "A", reasons: ["Nothing to fix."] });

let work: string;
let repo: string;
let server: ModelServer;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: gitEnv }).toString().trim();

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(repo, path)), { recursive: true });
  await writeFile(join(repo, path), text);
}

/** The built-in critic prompt with `marker` first in its body (a valid replacement). */
async function criticPrompt(marker: string): Promise<string> {
  const text = await readFile(join(repoRoot, "agents/review-critique.md"), "utf8");
  return text.replace(/\n---\n\n/, `\n---\n\n${marker}\n\n`);
}

/** A skill pack every prompt of a review carries (the judge's at least): its text is `marker`. */
async function skill(folder: string, name: string, marker: string): Promise<void> {
  await put(
    `${folder}/${name}/manifest.json`,
    JSON.stringify({
      name,
      version: "1.0.0",
      description: `${name} for reviews`,
      triggers: ["*"],
      applicable_agents: ["debater", "judge"],
      max_context_tokens: 200,
      entry_file: "SKILL.md",
    }),
  );
  await put(`${folder}/${name}/SKILL.md`, `${marker}\n`);
}

/** The JS config a change adds: running it leaves `marker` on disk and names a skill folder. */
const jsConfig = (marker: string, folder: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "executed");\nexport default { skills: { folders: [${JSON.stringify(folder)}] } };\n`;

function gate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runDebateAsync(["gate", "--dir", join(work, "debates"), ...args], join(repo, "app"), {
    ...process.env,
    NO_COLOR: "1",
    CI: "1",
    GITHUB_STEP_SUMMARY: "",
    XDG_CONFIG_HOME: join(work, "xdg"),
    XDG_STATE_HOME: join(work, "xdg-state"),
  });
}

let base: string;
let run: Awaited<ReturnType<typeof gate>>;
const comment = () => join(work, "gate.md");
const marker = () => join(work, "head-config-ran");

beforeAll(async () => {
  server = await startModelServer((r) =>
    r.model === "critic"
      ? r.allText.includes("xs.length - 1")
        ? bugCritique
        : clean
      : r.allText.includes("r01-f1 [P1]")
        ? bugJudgment
        : judgeClean,
  );
  work = await mkdtemp(join(tmpdir(), "gate-base-config-"));
  repo = join(work, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  const seat = (model: string) => ({
    adapter: "http",
    base_url: `${server.url}/v1`,
    model,
    timeout_ms: 30_000,
  });
  const seats = { critic: seat("critic"), judge: seat("judge"), author: seat("judge") };
  await put("sum.ts", goodSum);
  await put(".github/gate.json", JSON.stringify({ ...seats, block_on: ["P1"] }));
  await put(
    ".debatekit/agents/review-critique.md",
    await criticPrompt("BASE CRITIC RULES FOR {{max_rounds}} ROUND(S)"),
  );
  await skill("skills", "team-review", "BASE TEAM SKILL");
  await put("debatekit.config.yaml", "skills:\n  folders: [team-skills]\n");
  await skill("team-skills", "config-skill", "BASE CONFIG SKILL");
  await put("app/README.md", "The app.\n");
  git("add", ".");
  git("commit", "-q", "-m", "sum, the gate's policy, the team's critic prompt, config and skills");
  base = git("rev-parse", "HEAD");
  // The pull request: a real bug, and every way a change could steer its own review.
  git("checkout", "-q", "-b", "pr");
  await put("sum.ts", buggySum);
  await put(
    ".github/gate.json",
    JSON.stringify({ ...seats, block_on: ["P3"], pass_decisions: ["A", "B", "C", "D", "E"] }),
  );
  await put(
    ".debatekit/agents/review-critique.md",
    await criticPrompt("PLANTED CRITIC RULES FOR {{max_rounds}} ROUND(S)"),
  );
  await skill("skills", "planted-project", "PLANTED PROJECT SKILL");
  await skill("team-skills", "config-skill", "PLANTED CONFIG SKILL EDIT");
  await skill("app/planted-skills", "planted-config", "PLANTED CONFIG SKILL");
  await put("app/debatekit.config.mjs", jsConfig(marker(), "planted-skills"));
  git("add", ".");
  git("commit", "-q", "-m", "faster sum");
  run = await gate([
    "--scope",
    "base:main",
    "--policy",
    "../.github/gate.json",
    "--json",
    "--comment",
    comment(),
  ]);
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

// The change's own files are in every prompt as its diff: what a planted file would add is looked for
// as it is rendered (a skill under its heading, a prompt with its placeholder filled in).
const prompts = (model?: string) =>
  server.requests
    .filter((r) => model === undefined || r.model === model)
    .map((r) => r.allText)
    .join("\n");

describe("debate gate reads its settings from the base revision, never from the change", () => {
  it("never runs a JS config the change adds, and its skill folders are not used", () => {
    expect(existsSync(marker())).toBe(false);
    expect(prompts()).not.toContain("## Skill: planted-config");
  });

  it("the critic's prompt and the skills are the base revision's, not the change's", () => {
    expect(prompts("critic")).toContain("BASE CRITIC RULES FOR 1 ROUND(S)");
    expect(prompts("critic")).not.toContain("PLANTED CRITIC RULES FOR 1 ROUND(S)");
    expect(prompts()).toContain("## Skill: team-review\n\nBASE TEAM SKILL");
    expect(prompts()).toContain("## Skill: config-skill\n\nBASE CONFIG SKILL\n");
    expect(prompts()).not.toContain("## Skill: planted-project");
  });

  it("the base revision's policy decides, though the change edits the policy file", () => {
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "blocked", blocking: ["r01-f1"] });
  });

  it("--json and the comment name the base revision the settings came from", async () => {
    const result = JSON.parse(run.stdout);
    expect(validateGateResult(result).ok).toBe(true);
    expect(result.settings).toEqual({
      base,
      files: [".github/gate.json", "debatekit.config.yaml", ".debatekit/agents/review-critique.md"],
    });
    expect(await readFile(comment(), "utf8")).toContain(
      `Policy, config and role prompts: base \`${base.slice(0, 12)}\` (\`.github/gate.json\`, \`debatekit.config.yaml\`, \`.debatekit/agents/review-critique.md\`)`,
    );
  });

  it("a JS config in the base revision is not run either: a warning names it", async () => {
    const ran = join(work, "base-config-ran");
    git("checkout", "-q", "-b", "js-main", "main");
    await put("app/debatekit.config.mjs", jsConfig(ran, "skills"));
    git("add", ".");
    git("commit", "-q", "-m", "a JS config");
    git("checkout", "-q", "-b", "js-pr");
    await put("sum.ts", buggySum);
    git("commit", "-q", "-am", "faster sum");
    const second = await gate(["--scope", "base:js-main", "--policy", "../.github/gate.json", "--json"]);
    expect(existsSync(ran)).toBe(false);
    expect(second.stderr).toContain(
      "warning: app/debatekit.config.mjs (base revision): not run: a gate reads only JSON or YAML config files",
    );
    expect(second.code, second.stderr).toBe(1);
  });

  it("a policy the base revision does not have leaves the gate undecided, naming the file", async () => {
    git("checkout", "-q", "pr");
    await put("app/new-policy.json", "{}");
    git("add", ".");
    git("commit", "-q", "-m", "a new policy");
    const third = await gate(["--scope", "base:main", "--policy", "new-policy.json", "--json"]);
    expect(third.code).toBe(2);
    expect(JSON.parse(third.stdout)).toMatchObject({
      outcome: "undecided",
      settings: { base },
    });
    expect(JSON.parse(third.stdout).reason).toContain(
      `new-policy.json: not in the base revision ${base.slice(0, 12)}`,
    );
  });

  it("a program its own policy names runs without `debate allow`: the workflow chose it, not the change", async () => {
    // A policy outside the repository is the workflow's own. The gate made the review folder from
    // it, so it vouches for the critic's command; a folder handed over would need `debate allow`.
    const ran = join(work, "policy-command-ran");
    const policy = join(work, "workflow-policy.json");
    await writeFile(
      policy,
      JSON.stringify({
        critic: { adapter: "claude", command: ["/bin/sh", "-c", `touch '${ran}'; exit 3`] },
        judge: { adapter: "http", base_url: `${server.url}/v1`, model: "judge" },
      }),
    );
    const fourth = await gate(["--scope", "base:main", "--policy", policy, "--json"]);
    expect(existsSync(ran), fourth.stdout).toBe(true);
    const result = JSON.parse(fourth.stdout);
    expect(result.outcome).toBe("undecided");
    expect(result.reason).not.toContain("not allowed");
  });
});
