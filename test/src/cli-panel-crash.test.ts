import { spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// Exactly-once under a real crash: the built `debate` binary runs examples/crossfire-panel with its
// three verdict judges as http seats on the loopback model server. judge answers at once; judge_2
// and judge_3 hang. Once judge's verdict is journaled and the other two are being asked, the
// process is killed with SIGKILL; the re-run must ask only judge_2 and judge_3 (the server's log).
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/crossfire-panel");

let work: string;
let server: ModelServer;
let verdict: string;
let hang = true;

function reply(request: ModelRequest) {
  if (request.model === "j1" || !hang) return verdict;
  return { hang: true as const };
}

beforeAll(async () => {
  server = await startModelServer(reply);
  work = await mkdtemp(join(tmpdir(), "cli-panel-crash-"));
  // The judges answer with the sides' real names and ids (they pass through the label mapping).
  const recorded = await readFile(join(repoRoot, "examples/crossfire-grpc/replay.jsonl"), "utf8");
  verdict = JSON.parse(recorded.split("\n").find((l) => l.includes('"role":"judge"'))!).text;
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** Resolves when `check` holds, polling (no wall-clock assertion: the test's own timeout bounds it). */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

function run(dir: string) {
  const child = spawn(process.execPath, [bin, "run", dir], {
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const closed = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  return { child, closed, output: () => output };
}

const judgeModels = () => server.requests.map((r) => r.model).filter((m) => /^j\d$/.test(m));

describe("a verdict panel killed with SIGKILL mid-panel", () => {
  it("re-asks only the judges whose verdicts were not journaled", async () => {
    const dir = join(work, "debate");
    await cp(example, dir, { recursive: true });
    const seat = (model: string) =>
      `{ adapter: http, base_url: "${server.url}/v1", model: ${model}, timeout_ms: 120000 }`;
    const md = join(dir, "debate.md");
    const text = (await readFile(md, "utf8")).replace(
      "  challenger: { adapter: replay, file: replay.jsonl }\n",
      // The summarizer would default to the panel's first judge: it stays a recording.
      "  challenger: { adapter: replay, file: replay.jsonl }\n  summarizer: { adapter: replay, file: replay.jsonl }\n",
    );
    await writeFile(
      md,
      text.replace(
        /judges:\n {2}panel:\n(?: {4}- .*\n){3} {2}swap: true\n/,
        `judges:\n  panel:\n    - ${seat("j1")}\n    - ${seat("j2")}\n    - ${seat("j3")}\n`,
      ),
    );
    expect(await readFile(md, "utf8")).toContain("model: j3");
    expect(await readFile(md, "utf8")).toContain("summarizer: { adapter: replay");

    const first = run(dir);
    const journal = join(dir, ".debate", "journal");
    const journaled = async () =>
      (await readdir(journal).catch(() => [] as string[])).some((f) => /verdict-judge-a\d+\.json$/.test(f));
    await until(async () => (await journaled()) && ["j2", "j3"].every((m) => judgeModels().includes(m)));
    first.child.kill("SIGKILL");
    expect(await first.closed).toBeNull();
    expect(judgeModels().sort()).toEqual(["j1", "j2", "j3"]);
    // Nothing of the verdict was committed.
    await expect(readFile(join(dir, "verdict.md"), "utf8")).rejects.toThrow();

    hang = false;
    const before = server.requests.length;
    const second = run(dir);
    expect(await second.closed, second.output()).toBe(0);
    const asked = server.requests.slice(before).map((r) => r.model);
    expect(asked.sort()).toEqual(["j2", "j3"]);
    const panel = await readFile(join(dir, "judges", "verdict.md"), "utf8");
    expect(panel).toMatch(/answered: 3\n/);
    expect(panel).toMatch(/degraded: false\n/);
    expect(await readFile(join(dir, "verdict.md"), "utf8")).toMatch(/^winner: challenger$/m);
  }, 120_000);
});
