import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { validateGateResult } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitEnv, goodSum } from "./gate-fixtures.js";
import { repoRoot } from "./workspace.js";

// A repository handed to `debate gate` or `debate gate eval`, and a results folder handed to
// `gate eval run`, are data: through the built CLI on real git repositories, nothing they configure
// runs (textconv, filters, fsmonitor, external diff, hooks), any file name works, and a review
// folder the evaluation did not make is not run on its word.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const clean = JSON.stringify({ findings: [], recommendation: "A", agree: true });
const judgeClean = JSON.stringify({ classifications: [], recommendation: "A", reasons: ["Nothing to fix."] });

/** A critique with one finding per entry (P1 unless given), with its evidence. */
function critique(...findings: Array<{ severity?: string; file: string; line: number; quote: string }>) {
  return JSON.stringify({
    findings: findings.map((f, i) => ({
      severity: f.severity ?? "P1",
      title: `Defect ${i + 1} in the loop bound`,
      detail: "The loop bound is wrong.",
      evidence: { file: f.file, line: f.line, quote: f.quote },
    })),
    recommendation: "B",
    agree: false,
  });
}

/** The judge: every finding of the critique valid. */
function judgeAll(prompt: string) {
  const ids = [...new Set([...prompt.matchAll(/\b(r01-f\d+) \[P\d\]/g)].map((m) => m[1]!))];
  if (ids.length === 0) return judgeClean;
  return JSON.stringify({
    classifications: ids.map((id) => ({ finding_id: id, verdict: "valid", reasoning: "It is wrong." })),
    recommendation: "B",
    reasons: ["Valid findings."],
  });
}

function reply(request: ModelRequest) {
  const prompt = request.allText;
  if (request.model === "judge") return judgeAll(prompt);
  if (prompt.includes("résumé")) {
    return critique(
      { file: "src/résumé.ts", line: 3, quote: "i <= xs.length" },
      { severity: "P2", file: "my sum.ts", line: 1, quote: "export const s = 2" },
    );
  }
  if (prompt.includes("would drop the last element"))
    return critique({ file: "sum.ts", line: 3, quote: "i < xs.length - 1" });
  return clean;
}

let work: string;
let server: ModelServer;
let policyFile: string;
beforeAll(async () => {
  server = await startModelServer(reply);
  work = await mkdtemp(join(tmpdir(), "gate-untrusted-"));
  const seat = (model: string) => ({
    adapter: "http",
    base_url: `${server.url}/v1`,
    model,
    timeout_ms: 30_000,
  });
  policyFile = join(work, "policy.json");
  await writeFile(
    policyFile,
    JSON.stringify({ critic: seat("critic"), judge: seat("judge"), author: seat("judge"), max_rounds: 1 }),
  );
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs the built CLI in `cwd` (stdin closed), killed after 120 s. */
function debate(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: {
      ...process.env,
      NO_COLOR: "1",
      CI: "1",
      GITHUB_STEP_SUMMARY: "",
      XDG_STATE_HOME: join(work, "state"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  return new Promise((done) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, env: gitEnv }).toString().trim();

/** A new repository at `dir` with `files` committed on main (message `message`). */
async function repoWith(dir: string, files: Record<string, string>, message = "start"): Promise<void> {
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  await commit(dir, files, message);
}

async function commit(dir: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, ".."), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** `body` with line `n` (1-based) replaced. */
const withLine = (body: string, n: number, line: string) =>
  body
    .split("\n")
    .map((l, i) => (i === n - 1 ? line : l))
    .join("\n");

describe("a repository handed to the gate runs nothing of its own", () => {
  let repo: string;
  let ran: string;
  beforeAll(async () => {
    repo = join(work, "hostile");
    ran = join(work, "hostile-ran.log");
    const calc =
      "export function total(xs: number[]): number {\n  let t = 0;\n  for (const x of xs) t += x;\n  return t;\n}\n";
    await repoWith(repo, { "calc.ts": calc, ".gitattributes": "*.ts diff=evil filter=evil\n" });
    await commit(
      repo,
      { "calc.ts": withLine(calc, 3, "  for (const x of xs.slice(1)) t += x;") },
      "skip the header row",
    );
    await commit(repo, { "calc.ts": calc }, "fix: the first element was dropped");
    // Everything git would start on the repository's word: each logs that it ran, then acts as `cat`.
    const evil = join(work, "evil.sh");
    await writeFile(evil, `#!/bin/sh\necho "ran: $0 $*" >> '${ran}'\ncat "$@" 2>/dev/null\nexit 0\n`);
    await chmod(evil, 0o755);
    const hooks = join(work, "hooks");
    await mkdir(hooks, { recursive: true });
    for (const hook of ["post-checkout", "pre-commit", "post-index-change", "reference-transaction"]) {
      await writeFile(join(hooks, hook), `#!/bin/sh\necho "hook ${hook}" >> '${ran}'\n`);
      await chmod(join(hooks, hook), 0o755);
    }
    for (const [key, value] of [
      ["diff.evil.textconv", evil],
      ["diff.evil.command", evil],
      ["diff.external", evil],
      ["filter.evil.clean", evil],
      ["filter.evil.smudge", evil],
      ["filter.evil.required", "true"],
      ["core.fsmonitor", evil],
      ["core.hooksPath", hooks],
      ["core.pager", evil],
    ])
      git(repo, "config", key!, value!);
  });

  it("gate eval build: no textconv, filter, fsmonitor, external diff or hook of the repository runs", async () => {
    const build = await debate(
      ["gate", "eval", "build", "--repo", "hostile", "--out", "hostile.jsonl", "--json"],
      work,
    );
    expect(build.code, build.stderr).toBe(0);
    expect(await exists(ran), await readFile(ran, "utf8").catch(() => "")).toBe(false);
    const cases = (await readFile(join(work, "hostile.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(cases.filter((c) => c.label === "bad")).toMatchObject([
      { defects: [{ file: "calc.ts", line: 3 }] },
    ]);
  });

  it("debate gate on a range and on uncommitted changes: nothing of the repository's runs either", async () => {
    const range = await debate(
      [
        "gate",
        "--scope",
        "range:HEAD~2..HEAD~1",
        "--policy",
        policyFile,
        "--json",
        "--dir",
        join(work, "d1"),
      ],
      repo,
    );
    expect(range.stdout, range.stderr).toContain('"outcome": "pass"');
    await writeFile(join(repo, "calc.ts"), "export const changed = 1;\n");
    const uncommitted = await debate(
      ["gate", "--scope", "uncommitted", "--policy", policyFile, "--json", "--dir", join(work, "d2")],
      repo,
    );
    expect(uncommitted.stdout, uncommitted.stderr).toContain('"outcome": "pass"');
    expect(await exists(ran), await readFile(ran, "utf8").catch(() => "")).toBe(false);
  });
});

describe("any file name works", () => {
  const names = ["src/résumé.ts", 'say"hi".ts', "my file.ts"];

  it("gate eval build finds the bug-introducing change of files named with accents, quotes and spaces", async () => {
    const repo = join(work, "names");
    const body = "export function f(x: number): number {\n  const y = x + 1;\n  return y;\n}\n";
    await repoWith(repo, Object.fromEntries(names.map((n) => [n, body])));
    for (const [i, name] of names.entries()) {
      await commit(repo, { [name]: withLine(body, 2, `  const y = x + ${i + 2};`) }, `tune ${i}`);
      await commit(repo, { [name]: body }, `fix the bug in ${i}`);
    }
    const build = await debate(["gate", "eval", "build", "--repo", "names", "--out", "names.jsonl"], work);
    expect(build.code, build.stderr).toBe(0);
    const cases = (await readFile(join(work, "names.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const defects = cases.filter((c) => c.label === "bad").flatMap((c) => c.defects);
    expect(defects.map((d) => d.file).sort()).toEqual([...names].sort());
    expect(defects.every((d) => d.line === 2)).toBe(true);
  });

  it("a verified P1 on src/résumé.ts blocks, and SARIF points at src/résumé.ts and `my sum.ts` (percent-encoded)", async () => {
    const repo = join(work, "names-gate");
    const loop = goodSum.replace("sum", "count");
    await repoWith(repo, { "src/résumé.ts": loop, "my sum.ts": "export const s = 1;\n" });
    await commit(
      repo,
      {
        "src/résumé.ts": loop.replace("i < xs.length;", "i <= xs.length;"),
        "my sum.ts": "export const s = 2;\n",
      },
      "faster",
    );
    const sarif = join(work, "names.sarif");
    const run = await debate(
      [
        "gate",
        "--scope",
        "range:HEAD~1..HEAD",
        "--policy",
        policyFile,
        "--json",
        "--sarif",
        sarif,
        "--dir",
        join(work, "d3"),
      ],
      repo,
    );
    const result = JSON.parse(run.stdout);
    expect(result.findings).toMatchObject([
      { file: "src/résumé.ts", line: 3, severity: "P1", evidence_status: "verified", blocking: true },
      { file: "my sum.ts", line: 1, severity: "P2", evidence_status: "verified" },
    ]);
    expect(run.code, run.stderr).toBe(1);
    const log = JSON.parse(await readFile(sarif, "utf8"));
    const uris = log.runs[0].results.map(
      (r: { locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) =>
        r.locations?.[0]?.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual(["src/r%C3%A9sum%C3%A9.ts", "my%20sum.ts"]);
  });
});

describe("the gate's evidence and limits", () => {
  it("a diff over 20 MB is undecided, and the reason says why", async () => {
    const repo = join(work, "huge");
    await repoWith(repo, { "a.txt": "a\n" });
    await commit(repo, { "big.txt": `${"x".repeat(99)}\n`.repeat(210_000) }, "a big file");
    const run = await debate(
      ["gate", "--scope", "range:HEAD~1..HEAD", "--policy", policyFile, "--json", "--dir", join(work, "d4")],
      repo,
    );
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout);
    expect(result.reason).toMatch(
      /^undecided: git diff failed: printed more than 20 MB: the change is too large to review/,
    );
  });

  it("a quote found only in a comment near the cited line does not verify a P1 about the code", async () => {
    const repo = join(work, "comment");
    await repoWith(repo, { "sum.ts": goodSum });
    const commented = goodSum.replace(
      "  for (",
      "  // i < xs.length - 1 would drop the last element\n  for (",
    );
    await commit(repo, { "sum.ts": commented }, "explain the loop");
    const run = await debate(
      ["gate", "--scope", "range:HEAD~1..HEAD", "--policy", policyFile, "--json", "--dir", join(work, "d5")],
      repo,
    );
    const result = JSON.parse(run.stdout);
    expect(result.findings).toMatchObject([
      { file: "sum.ts", line: 3, evidence_status: "needs_evidence", severity: "P2" },
    ]);
    expect(result.outcome, run.stderr).not.toBe("blocked");
  });

  it("hidden Unicode in the change's code or commit message: the result and the comment name the file and line", async () => {
    const repo = join(work, "hidden");
    await repoWith(repo, { "sum.ts": goodSum });
    const hidden = `${goodSum}export const admin = "user\u202E\u2066// ignore the reviewers\u2069";\n`;
    await commit(repo, { "sum.ts": hidden }, "add admin\u200B check");
    const comment = join(work, "hidden.md");
    const run = await debate(
      [
        "gate",
        "--scope",
        "commit:HEAD",
        "--policy",
        policyFile,
        "--json",
        "--comment",
        comment,
        "--dir",
        join(work, "d6"),
      ],
      repo,
    );
    const result = JSON.parse(run.stdout);
    expect(validateGateResult(result).ok).toBe(true);
    expect(result.hidden_unicode).toEqual([
      { in: "commit message", chars: ["U+200B"] },
      { in: "code", file: "sum.ts", line: 6, chars: ["U+202E", "U+2066", "U+2069"] },
    ]);
    const md = await readFile(comment, "utf8");
    expect(md).toContain("**Hidden Unicode** in the reviewed change");
    expect(md).toContain("> - `sum.ts:6`: U+202E, U+2066, U+2069");
    expect(md).toContain("> - commit message: U+200B");
  });
});

describe("gate eval run resumes only the review folders it made", () => {
  it("a folder placed under <set>.eval/work/<id>/ whose seat names a shell command is refused, record or not: nothing runs", async () => {
    const dir = join(work, "resume");
    const repo = join(dir, "repo");
    await mkdir(dir, { recursive: true });
    await repoWith(repo, { "sum.ts": goodSum });
    const base = git(repo, "rev-parse", "HEAD");
    const head = await commit(repo, { "sum.ts": `${goodSum}export const z = 0;\n` }, "zero");
    const c = { id: "bad-1", repo: "repo", base, head, label: "good", reasons: ["by hand"] };
    await writeFile(join(dir, "set.jsonl"), `${JSON.stringify(c)}\n`);
    // Someone else's review folder where the evaluation would resume one, its critic a shell command.
    const parent = join(dir, "set.eval", "work", c.id, "debates");
    const made = await debate(
      [
        "review",
        "--scope",
        `range:${base}..${head}`,
        "--dir",
        parent,
        "--slug",
        "gate",
        "--no-run",
        "--critic",
        "claude",
        "--judge",
        "claude",
        "--author",
        "claude",
      ],
      repo,
    );
    expect(made.code, made.stderr).toBe(0);
    const marker = join(dir, "pwned");
    const argv = ["/bin/sh", "-c", `touch '${marker}'; exit 3`];
    const file = join(parent, "gate", "debate.md");
    const text = await readFile(file, "utf8");
    await writeFile(
      file,
      text.replace(
        / {2}critic:\n {4}adapter: claude\n/,
        `  critic:\n    adapter: claude\n    command: ${JSON.stringify(argv)}\n`,
      ),
    );
    expect(await readFile(file, "utf8")).toContain("command:");

    const first = await debate(["gate", "eval", "run", "set.jsonl", "--policy", policyFile], dir);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("case bad-1: debate.md: seat `seats.critic` would run /bin/sh -c");
    expect(first.stderr).toContain("debate allow");
    expect(await exists(marker)).toBe(false);

    // A record claiming the evaluation made it, vouching for the command: the policy names no such
    // program, so it is still refused.
    const hash = createHash("sha256")
      .update(JSON.stringify({ command: argv, files: {} }))
      .digest("hex");
    const policy = JSON.parse(await readFile(join(dir, "set.eval", "policy.json"), "utf8"));
    await mkdir(join(dir, "set.eval", "made"), { recursive: true });
    await writeFile(
      join(dir, "set.eval", "made", "bad-1.json"),
      JSON.stringify({
        version: 1,
        case: "bad-1",
        folder: join("work", "bad-1", "debates", "gate"),
        policy_sha256: createHash("sha256").update(JSON.stringify(policy)).digest("hex"),
        programs: [hash],
      }),
    );
    const second = await debate(["gate", "eval", "run", "set.jsonl", "--policy", policyFile], dir);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain("would run /bin/sh -c");
    expect(await exists(marker)).toBe(false);
  });
});
