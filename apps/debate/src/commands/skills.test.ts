import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { formalFormat, registerFormat } from "@debatekit/core";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import type { CliIO } from "../output.js";

const repoSkills = fileURLToPath(new URL("../../../../skills", import.meta.url));

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join("") });
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const io: CliIO = { stdout, stderr, env: {}, cwd: tmpdir() };
  const code = await main(["node", "debate", ...args], io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe("debate skills", () => {
  it("list --json shows the repository's skills with their token counts", async () => {
    const { code, stdout } = await run(["skills", "list", "--root", repoSkills, "--json"]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.problems).toEqual([]);
    const rubric = out.skills.find((s: { name: string }) => s.name === "judging-rubric");
    expect(rubric).toMatchObject({ triggers: ["*"], applicable_agents: ["judge"] });
    expect(rubric.tokens).toBeGreaterThan(100);
  });

  it("list reports a broken skill on stderr and exits 1, still listing the good one", async () => {
    const root = await mkdtemp(join(tmpdir(), "debate-skills-cli-"));
    await mkdir(join(root, "broken"));
    await writeFile(join(root, "broken", "manifest.json"), '{"name": "broken"}');
    const { code, stdout, stderr } = await run(["skills", "list", "--root", root, "--root", repoSkills]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^evidence-standards\s+1\.0\.0\s+debater,judge\s+650\s+evidence, study/m);
    expect(stderr).toContain(
      `error SKILL_MANIFEST_INVALID ${join(root, "broken", "manifest.json")} (version)`,
    );
    expect(stderr).toMatch(/debate: \d+ skill problem\(s\)/);
  });

  it("match shows chosen skills with score and tokens, and what the budget dropped", async () => {
    const text =
      "Rewrite the billing service in Rust for lower p99 latency; the benchmark evidence is strong";
    const { code, stdout } = await run([
      "skills",
      "match",
      text,
      "--role",
      "judge",
      "--budget",
      "1500",
      "--root",
      repoSkills,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^role judge, budget 1500 tokens \(cl100k_base\): \d chosen, \d+ tokens in all$/m);
    // The "*" skill goes first whatever the scores, and says so instead of a score.
    expect(stdout).toMatch(/1\.\s+judging-rubric\s+always\s+\d+ tokens\s+whole\s+matched: \*/);
    expect(stdout).toMatch(
      /2\.\s+performance-claims\s+score 30\s+\d+ tokens\s+whole\s+matched: benchmark, latency, p99/,
    );
    expect(stdout).toMatch(
      /3\.\s+cost-and-risk-tradeoffs\s+score 20\s+\d+ tokens\s+whole\s+matched: rewrite; means: money/,
    );
    expect(stdout).toMatch(/dropped\n\s+-\s+evidence-standards\s+score 20\s+over_budget: needs \d+ tokens/);
  });

  it("match --json agrees with the budget and honours --exclude", async () => {
    const { stdout } = await run([
      "skills",
      "match",
      "security of the auth module",
      "--role",
      "proposition",
      "--exclude",
      "code-citation-rules",
      "--root",
      repoSkills,
      "--json",
    ]);
    const out = JSON.parse(stdout);
    expect(out.chosen.map((c: { name: string }) => c.name)).toEqual(["security-review"]);
    expect(out.dropped).toEqual([expect.objectContaining({ name: "code-citation-rules", code: "excluded" })]);
    expect(out.totalTokens).toBeLessThanOrEqual(4000);
    expect(out.text.startsWith("## Skill: security-review\n\n")).toBe(true);
  });

  it("match --explain says which trigger, concept or terms of which field selected each skill, with weights", async () => {
    // No trigger word: the cost skill is found by its concepts, and its description and headings.
    const text = "Our cloud infrastructure bills eat the money and effort we have.";
    const { code, stdout } = await run([
      "skills",
      "match",
      text,
      "--role",
      "judge",
      "--root",
      repoSkills,
      "--explain",
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /2\.\s+cost-and-risk-tradeoffs\s+score 20\s+\d+ tokens\s+whole\s+matched: means: money, effort and time spent/,
    );
    expect(stdout).toMatch(/the budget of 4000 tokens\)/);
    expect(stdout).toMatch(
      / {2}judging-rubric: chosen, always \("\*"\), score 10, \d+ tokens\n {4}triggers {2}"\*" \(always\) 10 = 10 points\n/,
    );
    expect(stdout).toMatch(
      / {2}cost-and-risk-tradeoffs: chosen, score 20, \d+ tokens\n {4}triggers {2}none matched\n {4}concepts {2}"money" by "bill", "money" in "bills", "money" 10; "effort and time spent" by "effort" in "effort" 10 = 20 points\n {4}ranked {4}[\d.]+ = [\d.]+ \(sum of weights\) × 5 terms; >= 40, selects it\n {6}description {2}bills \[bill\] [\d.]+, cloud [\d.]+, effort [\d.]+, infrastructure \[infrastructur\] [\d.]+, money \[monei\] [\d.]+\n/,
    );
    const stem = await run([
      "skills",
      "match",
      "The team rewrites it",
      "--role",
      "judge",
      "--root",
      repoSkills,
      "--explain",
    ]);
    expect(stem.stdout).toMatch(/"rewrite" by stem in "rewrites" ×1 10 = 10 points/);
    // A stem alone selects only when the ranked match agrees; one word is too weak.
    expect(stem.stdout).toMatch(
      /cost-and-risk-tradeoffs: not selected\n.*\n {4}concepts {2}none meant\n {4}ranked {4}[\d.]+ = .*; < 15, too weak to confirm the stem match/,
    );
    const json = await run([
      "skills",
      "match",
      text,
      "--role",
      "judge",
      "--root",
      repoSkills,
      "--explain",
      "--json",
    ]);
    const sec = JSON.parse(json.stdout).explain.find(
      (e: { name: string }) => e.name === "cost-and-risk-tradeoffs",
    );
    expect(sec).toMatchObject({
      selected: true,
      always: false,
      score: 20,
      hits: [],
      concepts: [
        { concept: "money", phrases: ["bill", "money"], words: ["bills", "money"], points: 10 },
        { concept: "effort and time spent", phrases: ["effort"], words: ["effort"], points: 10 },
      ],
      ranked: { terms: 5, threshold: 40, selects: true },
    });
    expect(sec.ranked.hits.map((h: { stem: string; field: string }) => `${h.field}:${h.stem}`)).toEqual([
      "description:bill",
      "description:cloud",
      "description:effort",
      "description:infrastructur",
      "description:monei",
      "headings:effort",
      "headings:monei",
    ]);
  });

  it("match --format leaves out a skill written for another format's seats, as a debate of that format does", async () => {
    const chosen = async (format?: string) => {
      const args = ["skills", "match", "x", "--role", "judge", "--root", repoSkills, "--json"];
      const { code, stdout, stderr } = await run(format ? [...args, "--format", format] : args);
      expect(code, stderr).toBe(0);
      return (JSON.parse(stdout).chosen as Array<{ name: string }>).map((c) => c.name);
    };
    // The formal judge's rubric (its `formats` say formal): any judge without a format, formal's
    // judge with it, never crossfire's.
    expect(await chosen()).toContain("judging-rubric");
    expect(await chosen("formal")).toContain("judging-rubric");
    expect(await chosen("crossfire")).not.toContain("judging-rubric");
    const unknown = await run(["skills", "match", "x", "--role", "judge", "--format", "chess"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--format.*chess/);
  });

  it("match rejects an unknown role and a bad budget with a one-line cause", async () => {
    const role = await run(["skills", "match", "x", "--role", "jury"]);
    expect(role.code).toBe(1);
    expect(role.stderr).toMatch(/option '--role <role>' argument 'jury' is invalid/);
    const budget = await run(["skills", "match", "x", "--role", "judge", "--budget", "lots"]);
    expect(budget.code).toBe(1);
    expect(budget.stderr).toContain('debate: --budget must be a whole number of tokens, got "lots"');
  });

  it("match takes any registered format's role or seat kind, and reaches seats by kind", async () => {
    const proCon = {
      ...formalFormat,
      name: "pro-con-skills",
      roles: [
        { role: "pro", kind: "debater", description: "argues for" },
        { role: "con", kind: "debater", description: "argues against" },
        { role: "judge", kind: "judge", description: "decides" },
      ],
    } as const;
    expect(registerFormat(proCon).ok).toBe(true);
    const root = await mkdtemp(join(tmpdir(), "debate-skills-kinds-"));
    for (const [name, agents] of [
      ["for-debaters", ["debater"]],
      ["for-proposers", ["proposer"]],
      ["for-judges", ["judge"]],
    ] as const) {
      await mkdir(join(root, name));
      const manifest = {
        name,
        version: "1.0.0",
        description: `the ${name} skill`,
        triggers: ["*"],
        applicable_agents: agents,
        max_context_tokens: 100,
        entry_file: "SKILL.md",
      };
      await writeFile(join(root, name, "manifest.json"), JSON.stringify(manifest));
      await writeFile(join(root, name, "SKILL.md"), `# ${name}\n\nSome advice.\n`);
    }
    const chosen = async (role: string) => {
      const { code, stdout, stderr } = await run([
        "skills",
        "match",
        "x",
        "--role",
        role,
        "--root",
        root,
        "--json",
      ]);
      expect(code, stderr).toBe(0);
      return JSON.parse(stdout)
        .chosen.map((c: { name: string }) => c.name)
        .sort();
    };
    try {
      expect(await chosen("pro")).toEqual(["for-debaters"]);
      expect(await chosen("proposer")).toEqual(["for-debaters", "for-proposers"]);
      // A kind stands for every seat of that kind in the registered formats.
      expect(await chosen("debater")).toEqual(["for-debaters", "for-proposers"]);
      expect(await chosen("judge")).toEqual(["for-judges"]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
