import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// What was sent and received (item 8): `debate log` and `run --verbose`, through the built binary.
// (The same for real CLIs: test/src/cli/debate.cli.test.ts reads claude's calls with `debate log`.)
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
const secret = "s3cr3t-Value-0f-the-t0ken-9f8e7d";

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("log-"));
  env = { ...env, DEBATE_TEST_TOKEN: secret };
  await cp(join(repoRoot, "examples/ai-review-gate"), join(cwd, "d"), { recursive: true });
  // The motion quotes a secret of the environment: no prompt kept in the journal may hold it.
  const file = join(cwd, "d/debate.md");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace("## Definitions", `(Reviewed with key ${secret}.)\n\n## Definitions`));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("debate log and run --verbose", () => {
  it("run --verbose prints each call's prompt and answer as it is made, secrets redacted", () => {
    const run = debate(["run", "d", "--exchanges", "1", "--verbose"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    for (const role of ["proposition", "opposition"])
      expect(run.stderr).toContain(
        `=== exchange 0 · awaiting_arguments · ${role} · attempt 1 · replay · ok · `,
      );
    expect(run.stderr).toContain("=== exchange 0 · awaiting_judgment · judge · attempt 1 · replay · ok · ");
    expect(run.stderr).toContain("--- sent ---\nYou are the impartial judge of a formal debate");
    expect(run.stderr).toContain("(Reviewed with key [REDACTED].)");
    expect(run.stderr).not.toContain(secret);
  });

  it("debate log shows the journaled calls of a step, as text or JSON", async () => {
    const log = debate(["log", "d", "--step", "0:judge"], { cwd, env });
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout.match(/^=== /gm)).toHaveLength(1);
    expect(log.stdout).toMatch(/--- received ---\n\{/);
    expect(log.stdout).toContain("--- accepted ---");
    expect(log.stdout).not.toContain(secret);
    const entries = JSON.parse(debate(["log", "d", "--json"], { cwd, env }).stdout);
    expect(entries.map((e: { role: string }) => e.role).sort()).toEqual([
      "judge",
      "opposition",
      "proposition",
    ]);
    for (const e of entries) expect(e.prompt).toContain("[REDACTED]");
    const raw = await readFile(join(cwd, "d/.debate/journal/x0000-2-judgment-judge-a001.json"), "utf8");
    expect(raw).not.toContain(secret);
    const bad = debate(["log", "d", "--step", "judge"], { cwd, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: option .* argument 'judge' is invalid\. expected <exchange>/);
  });

  it("debate log shows whole the prompts the journal keeps as their end only", async () => {
    const run = debate(["run", "d"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    // The second run's later prompts repeat its first ones: the journal keeps them as their end.
    const names = (await readdir(join(cwd, "d/.debate/journal"))).filter((n) => n.endsWith(".json"));
    const kept = await Promise.all(
      names.map(async (n) => JSON.parse(await readFile(join(cwd, "d/.debate/journal", n), "utf8"))),
    );
    const ends = kept.filter((e) => e.prompt_base);
    expect(ends.length).toBeGreaterThan(4);
    for (const e of ends) expect(e.prompt).not.toContain("(Reviewed with key");
    const entries = JSON.parse(debate(["log", "d", "--json"], { cwd, env }).stdout);
    expect(entries).toHaveLength(names.length);
    for (const e of entries) {
      expect(e.prompt_base).toBeUndefined();
      expect(e.prompt).toContain("(Reviewed with key [REDACTED].)");
      expect(e.prompt).toMatch(/^You are the /);
    }
    const text = debate(["log", "d", "--step", "4:proposition"], { cwd, env }).stdout;
    expect(text).toContain("--- sent ---\nYou are the **proposition**");
    expect(text).toContain("(Reviewed with key [REDACTED].)");
    expect(JSON.stringify(entries) + text).not.toContain(secret);
  });
});
