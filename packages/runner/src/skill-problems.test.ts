import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDebate } from "./run.js";
import { reportSkillProblem } from "./skill-problems.js";
import type { RunEvent } from "./types.js";

// The example debate run for real (replay seats answer from its recording) with a skills folder
// that holds a broken entry file, a manifest that is not JSON (quoting a secret) and a duplicate
// (a copy of a good skill in a second folder).
const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));
// No well-known key shape: only the run's env can tell it is a secret.
const secret = "plum-velvet-4417-otter";

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-skill-problems-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function brokenSkills(): Promise<string> {
  const root = join(base, "skills");
  await cp(join(repoSkills, "evidence-standards"), join(root, "evidence-standards"), { recursive: true });
  await cp(join(repoSkills, "evidence-standards"), join(root, "evidence-copy"), { recursive: true });
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
  await writeFile(join(root, "bad-entry", "SKILL.md"), "---\ntitle: [unclosed\n---\nBody.\n");
  await mkdir(join(root, "bad-manifest"));
  await writeFile(join(root, "bad-manifest", "manifest.json"), `{ name: "oops", token: "${secret}" \n`);
  return root;
}

describe("runDebate reports skill problems", () => {
  it("emits each problem once per run, with file and field, redacted, and still completes", async () => {
    const dir = join(base, "debate");
    await cp(example, dir, { recursive: true });
    const root = await brokenSkills();
    const events: RunEvent[] = [];
    const summary = await runDebate(dir, {
      skillRoots: [root],
      cwd: base,
      env: { ...process.env, DEBATEKIT_SKILL_TOKEN: secret },
      onEvent: (event) => events.push(event),
    });
    expect(summary).toMatchObject({ status: "done", exchange: 5, committed: 10 });
    // Skills were loaded for many seat calls, yet each problem is reported once.
    expect(events.filter((e) => e.type === "seat_started").length).toBeGreaterThan(3);
    const problems = events.filter((e) => e.type === "skill_problem");
    const byCode = Object.fromEntries(problems.map((p) => [p.code, p]));
    expect(problems.map((p) => p.code).sort()).toEqual([
      "SKILL_DUPLICATE",
      "SKILL_ENTRY_FRONTMATTER",
      "SKILL_MANIFEST_NOT_JSON",
      // The copy's folder is not named after its skill: a warning, it still loads (and clashes).
      "SKILL_NAME_MISMATCH",
    ]);
    expect(byCode.SKILL_ENTRY_FRONTMATTER).toMatchObject({
      dir,
      severity: "error",
      file: join(root, "bad-entry", "SKILL.md"),
      field: "entry_file",
      skill: "bad-entry",
    });
    expect(byCode.SKILL_ENTRY_FRONTMATTER!.message).toContain("frontmatter is not valid YAML");
    expect(byCode.SKILL_DUPLICATE).toMatchObject({
      // Folders load in name order, so the copy came first and the original is the one skipped.
      file: join(root, "evidence-standards", "manifest.json"),
      field: "name",
      skill: "evidence-standards",
    });
    expect(byCode.SKILL_MANIFEST_NOT_JSON).toMatchObject({
      file: join(root, "bad-manifest", "manifest.json"),
    });
    expect(byCode.SKILL_MANIFEST_NOT_JSON!.message).toContain("[REDACTED]");
    for (const p of problems) {
      expect(["proposition", "opposition", "judge"]).toContain(p.role);
      expect(p).not.toHaveProperty("cause");
    }
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("reports nothing when debate.md turns skills off (no folder is read)", async () => {
    const dir = join(base, "debate");
    await cp(example, dir, { recursive: true });
    const debate = join(dir, "debate.md");
    const text = await readFile(debate, "utf8");
    expect(text).toMatch(/^---\n/);
    await writeFile(debate, text.replace(/^---\n/, "---\nskills:\n  enabled: false\n"));
    const events: RunEvent[] = [];
    const summary = await runDebate(dir, {
      skillRoots: [await brokenSkills()],
      cwd: base,
      exchanges: 1,
      onEvent: (event) => events.push(event),
    });
    expect(summary.status).toBe("done");
    expect(events.some((e) => e.type === "seat_started")).toBe(true);
    expect(events.filter((e) => e.type === "skill_problem")).toEqual([]);
  });
});

describe("reportSkillProblem", () => {
  it("drops cause, redacts every string and keeps one line", () => {
    const report = reportSkillProblem(
      {
        code: "SKILL_MANIFEST_NOT_JSON",
        severity: "error",
        file: "/s/x/manifest.json",
        field: "name",
        skill: `k-${secret}`,
        message: `not JSON;\n  got "${secret}"`,
        cause: new Error("boom"),
      },
      [secret],
    );
    expect(report).toEqual({
      code: "SKILL_MANIFEST_NOT_JSON",
      severity: "error",
      file: "/s/x/manifest.json",
      field: "name",
      skill: "k-[REDACTED]",
      message: 'not JSON; got "[REDACTED]"',
    });
  });
});
