import { spawn } from "node:child_process";
import { readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, exists, newcomer, newManualDebate, recordedAnswer, until } from "./newcomer.js";

// Manual seats as a person uses them: through the built binary, answers written into inbox/.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("manual-seats-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("manual seats", () => {
  it("say where to write, and take a rejected answer fixed in place", async () => {
    const made = newManualDebate(
      "This house would require a second AI model's review before merging AI-written code",
      "d",
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    expect(debate(["run", "d"], { cwd, env }).code).toBe(0);
    const prompt = await readFile(join(cwd, "d/prompts/e000-proposition.md"), "utf8");
    expect(prompt.split("\n")[0]).toBe("<!-- Write your answer to inbox/e000-proposition.md. -->");

    // A broken answer is rejected; the retry's prompt says both places an answer may go.
    const answer = join(cwd, "d/inbox/e000-proposition.md");
    await writeFile(answer, "I think the motion is right.\n");
    await writeFile(join(cwd, "d/inbox/e000-opposition.md"), await recordedAnswer(0, "opposition"));
    const rejected = debate(["run", "d"], { cwd, env });
    expect(rejected.stderr).toContain("answer rejected");
    const retry = await readFile(join(cwd, "d/prompts/e000-proposition-attempt2.md"), "utf8");
    expect(retry.split("\n")[0]).toContain("or fix inbox/e000-proposition.md in place");
    expect(debate(["status", "d", "--json"], { cwd, env }).stdout).toContain(
      "inbox/e000-proposition-attempt2.md",
    );

    // Fixing the first file in place (no -attempt2 file) is taken on the next run.
    await writeFile(answer, await recordedAnswer(0, "proposition"));
    const later = new Date(Date.now() + 2000);
    await utimes(answer, later, later);
    const fixed = debate(["run", "d"], { cwd, env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain("committed exchange 0/5 arguments");
    expect(await exists(join(cwd, "d/arguments/prop_000a.md"))).toBe(true);
    expect(await exists(join(cwd, "d/inbox/e000-proposition-attempt2.md"))).toBe(false);
  });

  it("a person is not bounded by the models' retries: each rejected answer gets its next prompt", async () => {
    expect(newManualDebate("This house would ban meetings on Fridays", "r", { cwd, env }).code).toBe(0);
    const file = join(cwd, "r/debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^current_phase: .*$/m, "$&\nretries: 1"));
    expect(debate(["run", "r"], { cwd, env }).code).toBe(0);
    await writeFile(join(cwd, "r/inbox/e000-opposition.md"), await recordedAnswer(0, "opposition"));
    await writeFile(join(cwd, "r/inbox/e000-proposition.md"), "not an answer\n");
    expect(debate(["run", "r"], { cwd, env }).code).toBe(0);
    await writeFile(join(cwd, "r/inbox/e000-proposition-attempt2.md"), "still not an answer\n");
    // Past `retries: 1`, the person is asked again rather than the debate failing.
    const third = debate(["run", "r"], { cwd, env });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/retries/);
    expect(await exists(join(cwd, "r/prompts/e000-proposition-attempt3.md"))).toBe(true);
    await writeFile(
      join(cwd, "r/inbox/e000-proposition-attempt3.md"),
      await recordedAnswer(0, "proposition"),
    );
    const fixed = debate(["run", "r"], { cwd, env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await exists(join(cwd, "r/arguments/prop_000a.md"))).toBe(true);
  });

  it("in watch mode, say why an answer was rejected", async () => {
    expect(newManualDebate("This house would write the docs first", "w", { cwd, env }).code).toBe(0);
    const watch = spawn(process.execPath, [debateBin, "watch", "w"], { cwd, env });
    let out = "";
    watch.stdout.on("data", (d) => (out += d));
    watch.stderr.resume();
    const exited = new Promise((done) => watch.on("close", done));
    try {
      await until("the prompts", () => exists(join(cwd, "w/prompts/e000-proposition.md")));
      await writeFile(join(cwd, "w/inbox/e000-opposition.md"), await recordedAnswer(0, "opposition"));
      await writeFile(join(cwd, "w/inbox/e000-proposition.md"), "I agree.\n");
      await until("the rejection line", async () => out.includes("answer was rejected"));
      // As `debate run` says it: the retry prompt a person answers holds every problem.
      expect(out).toMatch(
        /w: exchange 0 · the proposition's answer was rejected, asking again \(attempt 2\): \S+.*; the full list is in prompts\/e000-proposition-attempt2\.md\n/,
      );
      await until("the waiting line", async () => out.includes("e000-proposition-attempt2.md"));
    } finally {
      watch.kill("SIGINT");
      await exited;
    }
  });
});
