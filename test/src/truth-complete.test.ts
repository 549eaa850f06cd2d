import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, newcomer, until } from "./newcomer.js";

// A finished formal debate is complete in its file and in every message: debate.md's commit marker
// says `current_phase: complete` (as crossfire's and review's do), `debate watch` says so, a folder
// written before `complete` existed still reads as complete, and raising `exchanges` resumes it.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];
beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-complete-"));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
});

const phaseOf = (text: string) => /^current_phase: (\S+)$/m.exec(text)?.[1];
const exchangeOf = (text: string) => /^current_exchange: (\d+)$/m.exec(text)?.[1];

/** The offline example, run to its end in `cwd/<name>`. */
function finishedExample(name: string): string {
  expect(debate(["example", "ai-review-gate", name], { cwd, env }).code).toBe(0);
  const run = debate(["run", name], { cwd, env });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("done: complete after 5 exchange(s) (exchange 5, complete)");
  return join(cwd, name);
}

describe("a finished formal debate", () => {
  it("says current_phase: complete in debate.md, and `debate watch` says complete", async () => {
    const dir = finishedExample("finished");
    const text = await readFile(join(dir, "debate.md"), "utf8");
    expect(phaseOf(text)).toBe("complete");
    expect(exchangeOf(text)).toBe("5");

    const child = spawn(process.execPath, [debateBin, "watch", "finished"], { cwd, env });
    children.push(child);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    await until("watch's line for the finished debate", () => out.includes("finished: done:"));
    child.kill("SIGTERM");
    await new Promise((done) => child.on("close", done));
    expect(out).toMatch(/finished: done: complete after 5 exchange\(s\) \[exchange 5 complete\]/);
    expect(out).not.toContain("awaiting_arguments");
  });

  it("read from a folder written before `complete` (awaiting_arguments at its last exchange) is complete and untouched", async () => {
    const dir = finishedExample("older");
    const file = join(dir, "debate.md");
    const old = (await readFile(file, "utf8")).replace(
      "current_phase: complete",
      "current_phase: awaiting_arguments",
    );
    await writeFile(file, old);
    const status = debate(["status", "older", "--json"], { cwd, env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(status.stdout))).toMatch(/"phase":"complete"/);
    const run = debate(["run", "older"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("done: complete after 5 exchange(s) (exchange 5, complete)");
    expect(await readFile(file, "utf8")).toBe(old);
  });

  it("resumes when `exchanges` is raised: the next run asks for exchange 5's arguments", async () => {
    const dir = finishedExample("raised");
    const file = join(dir, "debate.md");
    // The recorded answers end at exchange 4: the sixth exchange is argued by people.
    const raised = (await readFile(file, "utf8"))
      .replace("exchanges: 5", "exchanges: 6")
      .replaceAll("{ adapter: replay, file: replay.jsonl }", "{ adapter: manual }");
    await writeFile(file, raised);
    const status = debate(["status", "raised"], { cwd, env });
    expect(status.stdout).toMatch(/^raised\s+awaiting_arguments\s+5\/6/m);
    const run = debate(["run", "raised"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/waiting/);
    const text = await readFile(file, "utf8");
    expect(phaseOf(text)).toBe("awaiting_arguments");
    expect(exchangeOf(text)).toBe("5");
    expect(await readdir(join(dir, "prompts"))).toEqual(
      expect.arrayContaining(["e005-proposition.md", "e005-opposition.md"]),
    );
  });
});
