import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate skills match` through the built binary: the order of the chosen table agrees with what
// each row says, and a motion that names no trigger finds its skill by what it means.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const repoSkills = join(repoRoot, "skills");

let work: string;
let root: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "skills-match-"));
  root = join(work, "skills");
  // An always-on rubric (one "*", 10 points) and a topical skill that two words select (20 points).
  const packs = [
    ["rubric", ["*"]],
    ["speed", ["latency", "p99"]],
  ] as const;
  for (const [name, triggers] of packs) {
    await mkdir(join(root, name), { recursive: true });
    const manifest = {
      name,
      version: "1.0.0",
      description: `The ${name} skill.`,
      triggers,
      applicable_agents: ["judge"],
      max_context_tokens: 200,
      entry_file: "SKILL.md",
    };
    await writeFile(join(root, name, "manifest.json"), `${JSON.stringify(manifest)}\n`);
    await writeFile(join(root, name, "SKILL.md"), `# ${name}\n\nAdvice for ${name}.\n`);
  }
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function match(args: string[]) {
  const ran = spawnSync(process.execPath, [bin, "skills", "match", ...args], {
    cwd: work,
    env: { ...process.env, XDG_CONFIG_HOME: join(work, "config"), NO_COLOR: "1" },
    encoding: "utf8",
  });
  expect(ran.status, ran.stderr).toBe(0);
  return ran.stdout;
}

/** The chosen table's rows: name and score cell. */
function chosenRows(stdout: string): Array<[string, string]> {
  const rows = [...stdout.matchAll(/^ {2}\d+\.\s+(\S+)\s+(always|score \d+|ranked [\d.]+)\s/gm)];
  return rows.map((r) => [r[1]!, r[2]!]);
}

describe("debate skills match (built binary)", () => {
  it("never shows a lower score above a higher one: the always-on skill ranked first says 'always'", () => {
    const stdout = match(["p99 latency of the API", "--role", "judge", "--root", root]);
    const rows = chosenRows(stdout);
    expect(rows).toEqual([
      ["rubric", "always"],
      ["speed", "score 20"],
    ]);
    const scores = rows
      .filter(([, cell]) => cell.startsWith("score "))
      .map(([, cell]) => Number(cell.slice(6)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const json = JSON.parse(match(["p99 latency of the API", "--role", "judge", "--root", root, "--json"]));
    expect(
      json.chosen.map((c: { name: string; always: boolean; score: number }) => [c.name, c.always, c.score]),
    ).toEqual([
      ["rubric", true, 10],
      ["speed", false, 20],
    ]);
  });

  it("orders the built-in skills by score below the always-on rubric, on a motion several skills match", () => {
    const text =
      "Rewrite the billing service in Rust for lower p99 latency; the benchmark evidence is strong";
    const rows = chosenRows(match([text, "--role", "judge", "--root", repoSkills]));
    expect(rows[0]).toEqual(["judging-rubric", "always"]);
    const scores = rows.slice(1).map(([, cell]) => Number(cell.replace(/^\D+/, "")));
    expect(rows.slice(1).every(([, cell]) => cell.startsWith("score "))).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("finds a skill by a concept when the motion names no trigger, and --explain says which", () => {
    const text = "The signing key for our release builds is bundled inside the Android app.";
    const stdout = match([text, "--role", "proposition", "--root", repoSkills, "--explain"]);
    expect(chosenRows(stdout)).toEqual([["security-review", "score 10"]]);
    expect(stdout).toMatch(/matched: means: secrets and keys/);
    expect(stdout).toContain(
      '  security-review: chosen, score 10, 550 tokens\n    triggers  none matched\n    concepts  "secrets and keys" by "signing key" in "signing key" 10 = 10 points\n',
    );
  });
});
