import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";

// Self-judging is a judge with the same adapter, model and endpoint as a seat it judges; a manual
// seat is a person. Every face says so only when it is so: `new` in each format, the gate,
// `tournament new`. And `new` warns only of seats the debate will call.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-self-judging-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("debate new", () => {
  it("says nothing of self-judging for manual seats (people), in crossfire", () => {
    const made = debate(
      [
        "new",
        "--format",
        "crossfire",
        "Tabs or spaces",
        "--proposer",
        "manual",
        "--challenger",
        "manual",
      ].concat(["--judge", "manual", "--slug", "people"]),
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).not.toMatch(/same adapter|favour/);
  });

  it("warns of a 2-round crossfire's seats that will be called, not of the summarizer (used from round 3)", () => {
    const made = debate(
      [
        "new",
        "--format",
        "crossfire",
        "Tabs or spaces",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
      ].concat(["--judge", "gemini", "--rounds", "2", "--slug", "two-rounds"]),
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain("judge (gemini) is not ready");
    expect(made.stderr).not.toContain("summarizer");
    const three = debate(
      [
        "new",
        "--format",
        "crossfire",
        "Tabs or spaces",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
      ].concat(["--judge", "gemini", "--rounds", "3", "--slug", "three-rounds"]),
      { cwd, env },
    );
    expect(three.stderr).toContain("summarizer (gemini) is not ready");
  });

  it("lets a judge be the debater's CLI with another model, and refuses the same model", () => {
    const other = debate(
      [
        "new",
        "This house would ship on Fridays",
        "--proposition",
        "codex:gpt-5",
        "--opposition",
        "manual",
      ].concat(["--judge", "codex:o3", "--slug", "other-model"]),
      { cwd, env },
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).not.toMatch(/SELF_JUDGING|favour/);
    const same = debate(
      [
        "new",
        "This house would ship on Fridays",
        "--proposition",
        "codex:gpt-5",
        "--opposition",
        "manual",
      ].concat(["--judge", "codex:gpt-5", "--slug", "same-model"]),
      { cwd, env },
    );
    expect(same.code).not.toBe(0);
    expect(same.stderr).toContain("SELF_JUDGING");
    expect(same.stderr).toContain("the judge codex gpt-5 is also the proposition");
  });
});

describe("debate tournament new", () => {
  it("takes an http judge beside http players of other models, and names no option it lacks", async () => {
    await writeFile(join(cwd, "motions.jsonl"), '{"motion":"This house would ship on Fridays"}\n');
    const made = debate(
      [
        "tournament",
        "new",
        "t-other",
        "--motions",
        "motions.jsonl",
        "--seats",
        "http:model-a,http:model-b",
      ].concat(["--judges", "http:model-c"]),
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    const same = debate(
      [
        "tournament",
        "new",
        "t-same",
        "--motions",
        "motions.jsonl",
        "--seats",
        "http:model-a,http:model-b",
      ].concat(["--judges", "http:model-a"]),
      { cwd, env },
    );
    expect(same.code).not.toBe(0);
    expect(same.stderr).toMatch(/the judge .*http model-a.* is the player .*http:model-a/);
    expect(same.stderr).not.toContain("--allow-self-judging");
  });
});

describe("debate gate", () => {
  it("does not call two models of the http adapter the critic's own", async () => {
    const repo = join(root, "repo");
    await mkdir(repo);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=a@b.c", "-c", "user.name=a", ...args], { cwd: repo, env });
    git("init", "-q", "-b", "main");
    git("commit", "-q", "--allow-empty", "-m", "start");
    await writeFile(join(repo, "a.txt"), "x\n");
    git("add", "a.txt");
    // Nothing listens on port 9 of loopback: the seats fail at once, after the warnings.
    const endpoint = "http://127.0.0.1:9/v1";
    await writeFile(
      join(root, "policy.yml"),
      `critic: { adapter: http, model: model-a, base_url: "${endpoint}" }\njudge: { adapter: http, model: model-b, base_url: "${endpoint}" }\nauthor: { adapter: manual }\n`,
    );
    const gate = debate(["gate", "--scope", "uncommitted", "--policy", join(root, "policy.yml")], {
      cwd: repo,
      env,
    });
    expect(gate.code, gate.stderr).toBe(2);
    expect(gate.stderr).not.toMatch(/critic's (own )?adapter/);
  });
});
