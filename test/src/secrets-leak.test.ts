import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSumRepo } from "./gate-fixtures.js";
import { type Ran, debate as run } from "./newcomer.js";
import { repoRoot, runDebateAsync } from "./workspace.js";

// Secrets a person put where they do not belong (a key where a variable's NAME goes, a password in
// a URL) never come back out of the built CLI: not on stderr or stdout, not in the gate's --json,
// SARIF, comment or step summary, not in any file of the folder a review writes. Each is refused
// before any seat is asked, so the seats point at a port nobody listens on.
/** A key shaped like Anthropic's (fake, random-looking body). */
const KEY = "sk-ant-api03-Zq8xK2mP9vL4nR7tW1yB6cD3fG5hJ0aBx7Yt";
/** A URL password, shaped like no key at all. */
const PASSWORD = "pw-hunter2-Lx9q";

let work: string;
let repo: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "secrets-leak-"));
  repo = join(work, "repo");
  await createSumRepo(repo, "change");
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The built CLI in `cwd`, with the gate's step summary off unless `env` sets it. */
const debate = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Ran =>
  run(args, { cwd, env: { ...process.env, NO_COLOR: "1", CI: "1", GITHUB_STEP_SUMMARY: "", ...env } });

/** Every file under `dir` (none when it does not exist), with its text. */
async function filesUnder(dir: string): Promise<Array<[string, string]>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const file = join(e.parentPath, e.name);
        return [file, await readFile(file, "utf8")] as [string, string];
      }),
  );
}

/** Runs the gate with a policy made of `critic`'s seat, every output asked for; returns all it wrote. */
async function gateWith(name: string, critic: object) {
  const dir = join(work, name);
  await mkdir(dir);
  const seat = (model: string) => ({
    adapter: "http",
    base_url: "http://127.0.0.1:9/v1",
    model,
    timeout_ms: 30_000,
  });
  const policy = join(dir, "policy.json");
  await writeFile(policy, JSON.stringify({ critic: { ...seat("critic"), ...critic }, judge: seat("judge") }));
  const summary = join(dir, "step-summary.md");
  const outputs = ["gate.sarif", "gate.md"].map((f) => join(dir, f));
  const gate = debate(
    [
      "gate",
      "--scope",
      "base:main",
      "--policy",
      policy,
      "--dir",
      join(dir, "debates"),
      "--json",
      "--sarif",
      outputs[0]!,
      "--comment",
      outputs[1]!,
    ],
    repo,
    { GITHUB_STEP_SUMMARY: summary },
  );
  const written = await Promise.all(
    [summary, ...outputs].map(async (f) => [f, await readFile(f, "utf8")] as [string, string]),
  );
  return { run: gate, written, folder: await filesUnder(join(dir, "debates")) };
}

describe("a gate policy with a secret in it", () => {
  it("a key where `api_key_env`'s variable name belongs: exit 2, the key in no output", async () => {
    const { run, written } = await gateWith("key-as-name", { api_key_env: KEY });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).reason).toMatch(/api_key_env/);
    for (const [what, text] of [["stdout", run.stdout], ["stderr", run.stderr], ...written])
      expect(text, what).not.toContain(KEY.slice("sk-ant-api03-".length, 30));
    // Each output says it was undecided and why (the field), only without the key.
    for (const [what, text] of written) expect(text, what).toMatch(/undecided/);
  });

  it("a literal key in a seat's env: refused (exit 2) before debate.md is written, the key in no file", async () => {
    const { run, written, folder } = await gateWith("key-in-env", { env: { OPENAI_API_KEY: KEY } });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).reason).toMatch(/policy\.json: `critic\.env\.OPENAI_API_KEY` holds/);
    for (const [what, text] of [["stdout", run.stdout], ["stderr", run.stderr], ...written, ...folder])
      expect(text, what).not.toContain(KEY.slice("sk-ant-api03-".length, 30));
    // Nothing half-written: the refusal comes before the review's folder.
    expect(folder.filter(([file]) => file.endsWith("debate.md"))).toEqual([]);
  });
});

describe("errors quoting what a person typed", () => {
  it("a project config with a key where an adapter's name goes: the error names the file and field, not the key", async () => {
    const dir = join(work, "config-key");
    await mkdir(dir);
    await writeFile(join(dir, ".debatekitrc.json"), JSON.stringify({ seats: { proposition: KEY } }));
    const run = debate(["new", "Tabs beat spaces"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.debatekitrc\.json: .*seats\.proposition/);
    expect(run.stdout + run.stderr).not.toContain(KEY.slice("sk-ant-api03-".length, 30));
  });

  it("--queue http://user:PASSWORD@... and --seats http:m@http://user:PASSWORD@...: refused without the password", async () => {
    const queued = debate(
      ["tournament", "run", join(work, "nowhere"), "--queue", `http://user:${PASSWORD}@10.0.0.5:6379/0`],
      work,
    );
    expect(queued.code).not.toBe(0);
    expect(queued.stderr).toMatch(/--queue must be a redis:\/\/ URL.*http:\/\/user:\*\*\*@10\.0\.0\.5/);
    const seats = debate(
      [
        "tournament",
        "new",
        join(work, "t-seats"),
        "--motions",
        join(repoRoot, "examples/tournament-replay/motions.jsonl"),
        "--seats",
        `http:m@http://user:${PASSWORD}@127.0.0.1:8080/v1,replay:b`,
        "--judges",
        "replay",
      ],
      work,
    );
    expect(seats.code).not.toBe(0);
    expect(seats.stderr).toMatch(/--seats: .*http:\/\/user:\*\*\*@127\.0\.0\.1:8080/);
    for (const text of [queued.stdout, queued.stderr, seats.stdout, seats.stderr])
      expect(text).not.toContain(PASSWORD);
  });

  it("the value of a secret-named environment variable quoted in an error is hidden", async () => {
    // A token pasted as the Redis host: the message quotes it; the environment says it is a secret.
    const token = "Tk7mQ2xV9pL4wZ8r";
    const run = debate(["worker", `mongodb://${token}`], work, { DEPLOY_TOKEN: token });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^debate: --queue must be a redis:\/\/ URL/m);
    expect(run.stderr).not.toContain(token);
  });
});

// Secrets a model repeats: the value of a variable a seat names (its `api_key_env`, under a name
// that does not look secret) and the passwords of the environment's REDIS_URL and DATABASE_URL, in
// the critic's findings and again in the judge's reasons. The seats are http seats on the loopback
// model server; nothing of any value may come back out, in any stream or file.
/** The critic's key, under a name with no KEY/TOKEN/SECRET in it, shaped like no vendor's key. */
const CRED = "Qv7rT2mX9kLp4wZs";
const REDIS_PASSWORD = "rEd1s-Pw-7731xq";
const DB_PASSWORD = "dB-s3cr3t-55kk";
const REDIS_URL = `redis://default:${REDIS_PASSWORD}@127.0.0.1:6379/0`;
const DATABASE_URL = `postgres://app:${DB_PASSWORD}@127.0.0.1:5432/app`;
const echoed = `key ${CRED}, ${REDIS_URL}, ${DATABASE_URL}, passwords ${REDIS_PASSWORD} and ${DB_PASSWORD}`;

function echo(request: ModelRequest): string {
  if (request.model === "critic")
    return JSON.stringify({
      findings: [
        {
          severity: "P1",
          title: `Off-by-one drops the last element (${CRED}, ${REDIS_PASSWORD})`,
          detail: `The loop stops one short; ${echoed}.`,
          evidence: { file: "sum.ts", line: 3, quote: "i < xs.length - 1" },
          suggestion: `Loop while i < xs.length; rotate ${DB_PASSWORD}.`,
        },
      ],
      recommendation: "B",
      agree: false,
    });
  return JSON.stringify({
    classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: `Stops one short; ${echoed}.` }],
    recommendation: "B",
    reasons: [`A verified P1; the critic's ${echoed}.`],
  });
}

describe("values a model repeats", () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer(echo);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a seat's api_key_env value (LLM_CRED) and REDIS_URL/DATABASE_URL passwords, echoed by critic and judge: in no output, no file", async () => {
    const dir = join(work, "echo");
    await mkdir(dir);
    const seat = (model: string) => ({
      adapter: "http",
      base_url: `${server.url}/v1`,
      model,
      timeout_ms: 30_000,
    });
    const policy = join(dir, "policy.json");
    await writeFile(
      policy,
      JSON.stringify({ critic: { ...seat("critic"), api_key_env: "LLM_CRED" }, judge: seat("judge") }),
    );
    const outputs = ["gate.sarif", "gate.md", "step-summary.md"].map((f) => join(dir, f));
    const gate = await runDebateAsync(
      [
        "gate",
        "--scope",
        "base:main",
        "--policy",
        policy,
        "--dir",
        join(dir, "debates"),
        "--json",
        "--sarif",
        outputs[0]!,
        "--comment",
        outputs[1]!,
      ],
      repo,
      {
        ...process.env,
        NO_COLOR: "1",
        CI: "1",
        GITHUB_STEP_SUMMARY: outputs[2]!,
        LLM_CRED: CRED,
        REDIS_URL,
        DATABASE_URL,
      },
    );
    // The review ran and judged: the finding blocks, its words kept around what was removed.
    expect(JSON.parse(gate.stdout)).toMatchObject({ outcome: "blocked", exit_code: 1 });
    expect(gate.code).toBe(1);
    const folder = await filesUnder(join(dir, "debates"));
    const files = folder.map(([file]) => file.slice(join(dir, "debates").length + 1).replace(/^[^/]+\//, ""));
    expect(files).toEqual(expect.arrayContaining(["rounds/r01-judgment.md", "summary.md"]));
    expect(files.some((f) => f.startsWith(".debate/journal/"))).toBe(true);
    const written = await Promise.all(
      outputs.map(async (f) => [f, await readFile(f, "utf8")] as [string, string]),
    );
    const all: Array<[string, string]> = [
      ["stdout", gate.stdout],
      ["stderr", gate.stderr],
      ...written,
      ...folder,
    ];
    for (const [what, text] of all)
      for (const secret of [CRED, REDIS_PASSWORD, DB_PASSWORD]) expect(text, what).not.toContain(secret);
    const judgment = folder.find(([file]) => file.endsWith("rounds/r01-judgment.md"))![1];
    expect(judgment).toContain("A verified P1; the critic's key [REDACTED]");
  });
});
