import { execFile, spawn } from "node:child_process";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, newcomer, until } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// `debate status` tells the truth: each case through the built binary, on real folders.
const example = join(repoRoot, "examples/ai-review-gate");
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("status-truth-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function copyExample(name: string): Promise<string> {
  const dir = join(cwd, name);
  await cp(example, dir, { recursive: true });
  return dir;
}

async function editDebate(dir: string, edit: (text: string) => string): Promise<void> {
  const file = join(dir, "debate.md");
  await writeFile(file, edit(await readFile(file, "utf8")));
}

/** The built `debate`, run without blocking this process (a run beside it goes on). */
function debateAsync(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ stdout: string }> {
  return new Promise((done, fail) =>
    execFile(process.execPath, [debateBin, ...args], options, (error, stdout) =>
      error ? fail(error) : done({ stdout }),
    ),
  );
}

/**
 * Runs `debate run <name>` with its `role` seat on a model server that holds every request, calls
 * `during` with the run's pid once that seat is asked (caught by the event, never by being slow
 * enough), then stops the run with SIGINT.
 */
async function whileRunHeldOn(
  name: string,
  role: string,
  during: (pid: number) => Promise<void>,
): Promise<void> {
  const held: ServerResponse[] = [];
  let asked: () => void = () => undefined;
  const seatAsked = new Promise<void>((done) => {
    asked = done;
  });
  const server = createServer((_req, res) => {
    held.push(res);
    asked();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  try {
    await editDebate(join(cwd, name), (t) =>
      t.replace(
        `${role}: { adapter: replay, file: replay.jsonl }`,
        `${role}: { adapter: http, base_url: "http://127.0.0.1:${port}/v1", model: "held" }`,
      ),
    );
    const child = spawn(process.execPath, [debateBin, "run", name], { cwd, env, stdio: "ignore" });
    const exited = new Promise((done) => child.on("close", done));
    try {
      await seatAsked;
      await during(child.pid!);
    } finally {
      child.kill("SIGINT");
      await exited;
    }
  } finally {
    for (const res of held) res.destroy();
    server.close();
  }
}

/** The report page `debate serve <name>` serves for its one debate. */
async function servedReport(name: string): Promise<string> {
  const child = spawn(process.execPath, [debateBin, "serve", name, "--port", "0"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  try {
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    const pattern = /(http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+)\/\?token=(\S+)/;
    await until("the server prints its URL", () => pattern.test(out), 20_000);
    const [, base, token] = pattern.exec(out)!;
    // The token as the cookie the printed URL sets (a redirect would drop it from a plain fetch).
    const headers = { cookie: `debatekit_serve_${new URL(base!).port}=${token}` };
    const home = await (await fetch(`${base}/`, { headers })).text();
    const link = /\/d\/[^/"?#]+/.exec(home)![0];
    const report = await fetch(`${base}${link}/report`, { headers });
    expect(report.status).toBe(200);
    return await report.text();
  } finally {
    child.kill();
  }
}

const statusJson = (args: string[]) => JSON.parse(debate(["status", ...args, "--json"], { cwd, env }).stdout);

describe("debate status", () => {
  it("says paused for a paused debate, not the phase it would run", async () => {
    const dir = await copyExample("paused");
    await editDebate(dir, (t) => t.replace("retries: 2\n", "retries: 2\npaused: true\n"));
    const status = debate(["status", "paused"], { cwd, env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^paused\s+paused \(awaiting_arguments\)\s+0\/5/m);
    expect(statusJson(["paused"])[0]).toMatchObject({ activity: "paused" });
  });

  it("shows a run in progress as running with its pid, and a stopped run leaves no error behind", async () => {
    await copyExample("running");
    await whileRunHeldOn("running", "judge", async (pid) => {
      const status = debate(["status", "running"], { cwd, env });
      expect(status.stdout).toMatch(
        new RegExp(`^running\\s+awaiting_judgment\\s.*running \\(pid ${pid}\\)`, "m"),
      );
    });
    const after = statusJson(["running"])[0];
    expect(after.activity).toBeUndefined();
    expect(after.last_error).toBeUndefined();
  });

  it("reports a run waiting on its first seat as running, naming the seat, never as not started", async () => {
    const dir = await copyExample("first-seat");
    // The proposition is held: the run holds the lock and nothing is committed yet.
    await whileRunHeldOn("first-seat", "proposition", async (pid) => {
      const report = debate(["report", "first-seat", "--json"], { cwd, env });
      expect(report.code, report.stderr).toBe(0);
      const summary = JSON.parse(report.stdout) as { status: string; alerts: string[] };
      expect(summary.status).toBe("running");
      expect(summary.alerts.join("\n")).not.toMatch(/not started|`debate run` .*starts it/);
      expect(summary.alerts[0]).toBe(
        `running (pid ${pid}): nothing is committed yet; waiting on the proposition seat`,
      );
      const text = await readFile(join(dir, "report.md"), "utf8");
      expect(text).toMatch(/\| Status \| running \|/);
      expect(text).not.toContain("not started");
      const status = debate(["status", "first-seat"], { cwd, env });
      expect(status.stdout).toMatch(new RegExp(`^first-seat\\s.*running \\(pid ${pid}\\)`, "m"));
      // The serve page's report says the same.
      const page = await servedReport("first-seat");
      expect(page).toContain(
        `running (pid ${pid}): nothing is committed yet; waiting on the proposition seat`,
      );
      expect(page).not.toContain("not started");
    });
  });

  it("reads a folder consistently while a run commits its steps (never invalid mid-commit)", async () => {
    await copyExample("busy");
    const child = spawn(process.execPath, [debateBin, "run", "busy"], { cwd, env, stdio: "ignore" });
    let running = true;
    const exited = new Promise((done) =>
      child.on("close", (code) => {
        running = false;
        done(code);
      }),
    );
    const rows: Array<{ phase?: string; last_error?: string }> = [];
    while (running) {
      const ran = await debateAsync(["status", "busy", "--json"], { cwd, env });
      rows.push(JSON.parse(ran.stdout)[0]);
    }
    expect(await exited).toBe(0);
    // An answer the run rejected and then asked again for is on record between the two calls: the
    // only error a reader may see mid-run is one of those, as the journal words it.
    const journal = join(cwd, "busy/.debate/journal");
    const rejected = new Set<string>();
    for (const file of (await readdir(journal)).filter((f) => f.endsWith(".json"))) {
      const entry = JSON.parse(await readFile(join(journal, file), "utf8"));
      if (entry.validation?.ok === false) rejected.add(`${entry.role}: ${entry.validation.errors?.[0]}`);
    }
    for (const row of rows) {
      if (row.last_error !== undefined) expect(rejected).toContain(row.last_error);
      expect(row.phase).toMatch(/^awaiting_|^complete/);
    }
    expect(statusJson(["busy"])[0]).toMatchObject({ phase: "complete", exchange: 5 });
  });

  it("names the inbox file a manual seat waits for", async () => {
    const made = debate(
      // Every seat a person: a run finds a seat whose CLI is not installed before its first call.
      [
        "new",
        "This house would write tests first",
        "--proposition",
        "manual",
        "--opposition",
        "manual",
      ].concat(["--judge", "manual"]),
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    expect(debate(["run", "debates/write-tests-first"], { cwd, env }).code).toBe(0);
    const status = debate(["status", "debates"], { cwd, env });
    expect(status.stdout).toContain("waiting for inbox/e000-opposition.md, inbox/e000-proposition.md");
  });

  it("drops an error once the seat that failed is changed, and marks a cut error and gives it in full", async () => {
    const dir = await copyExample("fixed");
    // A judge on a port where nothing listens: its call fails with a long error.
    await editDebate(dir, (t) =>
      t.replace(
        "judge: { adapter: replay, file: replay.jsonl }",
        'judge: { adapter: http, base_url: "http://127.0.0.1:9/v1/a-long-path-so-that-the-error-message-is-longer-than-eighty-characters", model: "none" }',
      ),
    );
    const failed = debate(["run", "fixed", "--exchanges", "1"], { cwd, env });
    expect(failed.code).toBe(1);
    const row = statusJson(["fixed"])[0];
    expect(row.last_error).toMatch(/^judge: /);
    const table = debate(["status", "fixed"], { cwd, env }).stdout;
    expect(row.last_error.length).toBeGreaterThan(80);
    expect(table).toMatch(/^fixed\s.*…$/m);
    expect(table).toContain(`fixed: ${row.last_error}`);
    await editDebate(dir, (t) =>
      t.replace(/judge: \{ adapter: http[^\n]*/, "judge: { adapter: replay, file: replay.jsonl }"),
    );
    expect(statusJson(["fixed"])[0].last_error).toBeUndefined();
  });

  it("names a debate by its folder when given as `.` or `..`, and gives the winner in --json", async () => {
    const dir = await copyExample("finished");
    expect(debate(["run", "finished"], { cwd, env }).code).toBe(0);
    const inside = debate(["status", "."], { cwd: dir, env });
    expect(inside.stdout).toMatch(/^finished\s+complete\s+5\/5/m);
    const below = join(dir, "arguments");
    expect(debate(["status", ".."], { cwd: below, env }).stdout).toMatch(/^finished\s+complete/m);
    expect(statusJson(["finished"])[0]).toMatchObject({ winner: "proposition" });
  });

  it("fails with a one-line cause for a folder that does not exist or holds no debate", async () => {
    const missing = debate(["status", "nope"], { cwd, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("debate: nope: no such folder\n");
    const empty = debate(["status", "."], { cwd: root, env });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^debate: no debates found in \. /);
  });
});
