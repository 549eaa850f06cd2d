import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, exists, newcomer } from "./newcomer.js";
import { folderFingerprint, repoRoot } from "./workspace.js";

// What `new`, `run` and `status` print agrees with the folder: each case through the built binary.
const examples = join(repoRoot, "examples");
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-faces-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A copy of an example's folder under `cwd`, named `name`. */
async function copyExample(from: string, name: string): Promise<string> {
  const dir = join(cwd, name);
  await cp(join(examples, from), dir, { recursive: true });
  return dir;
}

/** The STATUS row of `name` split on runs of two or more spaces. */
function statusCells(name: string): string[] {
  const status = debate(["status", name], { cwd, env });
  expect(status.code, status.stderr).toBe(0);
  const line = status.stdout.split("\n").find((l) => l.startsWith(`${name} `));
  return line!.trim().split(/\s{2,}/);
}

describe("debate run's closing line", () => {
  it("shows a finished formal debate as complete, not as a phase that waits", async () => {
    await copyExample("ai-review-gate", "formal-done");
    const run = debate(["run", "formal-done"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^done: complete after 5 exchange\(s\) \(exchange 5, complete\)$/m);
    expect(run.stdout).not.toContain("awaiting_arguments");
  });
});

describe("debate status of a finished crossfire debate", () => {
  it("gives the verdict in the WINNER column only, the sides' columns empty", async () => {
    await copyExample("crossfire-grpc", "crossfire-done");
    expect(debate(["run", "crossfire-done"], { cwd, env }).code).toBe(0);
    // Crossfire has no score columns (formal's PROP and OPP are formal's own): the verdict is the RESULT.
    const [, phase, rounds, result] = statusCells("crossfire-done");
    expect([phase, rounds, result]).toEqual(["complete", "3/3", "challenger"]);
  });
});

describe("a finished review", () => {
  it("says what its decision means, in run's closing line and in its status row", async () => {
    await copyExample("review-sum/redis", "review-done");
    const run = debate(["run", "review-done"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^done: decision D: continue with a rebuttal \(converged\) after 3 round\(s\) \(round 3, complete\)$/m,
    );
    const cells = statusCells("review-done");
    expect(cells.slice(1, 3)).toEqual(["complete", "3/3"]);
    expect(cells[3]).toBe("D: continue with a rebuttal");
  });
});

describe("debate status's progress column", () => {
  it("is headed by the format's own unit: ROUND for a review, EXCHANGE for a formal debate", async () => {
    await copyExample("review-sum/redis", "review-unit");
    const review = debate(["status", "review-unit"], { cwd, env });
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toMatch(/^DEBATE\s+PHASE\s+ROUND\s+RESULT\s/m);
    await copyExample("ai-review-gate", "formal-unit");
    const formal = debate(["status", "formal-unit"], { cwd, env });
    // A formal debate never run has no scores yet, so no score columns either.
    expect(formal.stdout).toMatch(/^DEBATE\s+PHASE\s+EXCHANGE\s+RESULT\s/m);
  });
});

describe("debate status of a formal debate never run", () => {
  it("shows no score for either side until one exists", async () => {
    const seats = ["--proposition", "manual", "--opposition", "manual", "--judge", "manual"];
    const made = debate(
      ["new", "This house would test first", ...seats, "--slug", "unscored", "--dir", "."],
      {
        cwd,
        env,
      },
    );
    expect(made.code, made.stderr).toBe(0);
    const [, phase, exchange, prop, opp] = statusCells("unscored");
    expect([phase, exchange, prop, opp]).toEqual(["awaiting_arguments", "0/5", "-", "-"]);
    const json = JSON.parse(debate(["status", "unscored", "--json"], { cwd, env }).stdout)[0];
    expect(json.scores).toBeUndefined();
    expect(json.sides).toBeUndefined();
  });
});

describe("debate status on a file", () => {
  it("says the path is a file, not a debate folder", async () => {
    await writeFile(join(cwd, "afile.txt"), "x\n");
    const status = debate(["status", "afile.txt"], { cwd, env });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain("afile.txt: a file, not a debate folder");
    expect(status.stderr).not.toContain("no such folder");
  });
});

describe("debate new --format review", () => {
  it("refuses, naming the `debate review` command to use, and makes no folder", async () => {
    const made = debate(
      ["new", "--format", "review", "Cache every response for a day", "--critic", "codex", "--dir", "made"],
      { cwd, env },
    );
    expect(made.code).toBe(2);
    expect(made.stderr).toContain("debate review <file> --critic codex");
    expect(made.stderr).toContain("--scope uncommitted");
    expect(made.stdout).not.toContain("next: debate run");
    expect(await exists(join(cwd, "made"))).toBe(false);
  });
});

describe("debate new with default seats whose programs are not installed", () => {
  it("makes the folder, then warns for each seat and says how to go on", async () => {
    const bare = { ...env, PATH: [dirname(process.execPath), "/usr/bin", "/bin"].join(":") };
    const made = debate(["new", "This house would write tests first", "--dir", "bare", "--slug", "tf"], {
      cwd,
      env: bare,
    });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain("created bare/tf/debate.md");
    const warnings = made.stderr.split("\n").filter((l) => l.startsWith("warning: "));
    for (const role of ["proposition", "opposition", "judge"])
      expect(warnings.some((w) => w.includes(`${role} (`) && w.includes("not ready"))).toBe(true);
    expect(made.stderr).toContain("--proposition manual");
    expect(made.stderr).toContain("debate doctor bare/tf");
  });
});

describe("a run whose judge cannot be called", () => {
  /** Runs `dir` with a replay log; the folder and the log must show that nothing was asked or written. */
  async function runFailsBeforeAnyCall(dir: string, field: string): Promise<void> {
    const log = join(root, `${field}-${Date.now()}.jsonl`);
    const before = await folderFingerprint(dir);
    const run = debate(["run", dir], { cwd, env: { ...env, DEBATEKIT_REPLAY_LOG: log } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(field);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(log)).toBe(false);
  }

  it("fails before the first call when no judge is named", async () => {
    const dir = await copyExample("ai-review-gate", "no-judge");
    const file = join(dir, "debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^ {2}judge: .*\n/m, ""));
    await runFailsBeforeAnyCall(dir, "seats.judge");
  });

  it("fails before the first call when the judge's replay file is outside the folder", async () => {
    const dir = await copyExample("ai-review-gate", "judge-outside");
    const file = join(dir, "debate.md");
    await writeFile(
      file,
      (await readFile(file, "utf8")).replace(
        /^ {2}judge: .*$/m,
        "  judge: { adapter: replay, file: ../outside.jsonl }",
      ),
    );
    await writeFile(join(cwd, "outside.jsonl"), "");
    await runFailsBeforeAnyCall(dir, "seats.judge.file");
    expect((await readdir(dir)).sort()).toEqual(["README.md", "debate.md", "example.json", "replay.jsonl"]);
  });
});
