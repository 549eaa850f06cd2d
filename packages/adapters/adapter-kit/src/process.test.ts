import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "./process.js";

// Small fake CLIs, written as real scripts and run as real processes.
const scripts: Record<string, string> = {
  echo: `let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => process.stdout.write("got:" + s));`,
  hang: `setInterval(() => {}, 1000);`,
  stubborn: `process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000);`,
  crash: `process.stderr.write("boom: something broke\\n"); process.exit(3);`,
  flood: `const chunk = "x".repeat(65536); let n = 0; const go = () => { while (n < 400) { n++; if (!process.stdout.write(chunk)) return process.stdout.once("drain", go); } }; go();`,
  grandchild: `const { spawn } = require("node:child_process"); const c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); require("node:fs").writeFileSync(process.argv[2], String(c.pid)); console.log("spawned"); setInterval(() => {}, 1000);`,
  orphan: `const { spawn } = require("node:child_process"); const c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "inherit" }); require("node:fs").writeFileSync(process.argv[2], String(c.pid)); console.log("bye");  process.exit(0);`,
  args: `process.stdout.write(JSON.stringify(process.argv.slice(2)));`,
};

let dir: string;
const script = (name: string) => join(dir, `${name}.cjs`);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** True while `pid` runs: a zombie (dead, not yet reaped by init) does not count. */
const running = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};
const waitGone = async (pid: number, ms = 3000) => {
  const end = Date.now() + ms;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return !alive(pid);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "adapter-kit-"));
  for (const [name, body] of Object.entries(scripts)) await writeFile(script(name), body);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("runProcess", () => {
  it("writes the prompt to stdin and closes it, so a program reading to EOF finishes", async () => {
    const out = await runProcess({
      command: process.execPath,
      args: [script("echo")],
      stdin: "hello prompt",
      timeoutMs: 5000,
    });
    expect(out).toMatchObject({ stdout: "got:hello prompt", exitCode: 0, timedOut: false, cancelled: false });
  });

  it("passes arguments verbatim, never through a shell", async () => {
    const out = await runProcess({
      command: process.execPath,
      args: [script("args"), "$(echo pwned)", "a;b", "`x`"],
      timeoutMs: 5000,
    });
    expect(JSON.parse(out.stdout)).toEqual(["$(echo pwned)", "a;b", "`x`"]);
  });

  it("times out a hanging program and kills it", async () => {
    const out = await runProcess({ command: process.execPath, args: [script("hang")], timeoutMs: 300 });
    expect(out.timedOut).toBe(true);
    expect(out.exitCode).toBeNull();
    expect(out.signal).toBe("SIGTERM");
  });

  it("SIGKILLs a program that ignores SIGTERM after the grace period", async () => {
    const out = await runProcess({
      command: process.execPath,
      args: [script("stubborn")],
      // Long enough for node to start and install its SIGTERM handler on a loaded CI machine
      // (400 ms was not: the handler was not there yet and SIGTERM alone ended it).
      timeoutMs: 5000,
      killGraceMs: 300,
    });
    expect(out.timedOut).toBe(true);
    expect(out.signal).toBe("SIGKILL");
    expect(out.stdout).toContain("ready");
  });

  it("reports a crash with its exit code and stderr", async () => {
    const out = await runProcess({ command: process.execPath, args: [script("crash")], timeoutMs: 5000 });
    expect(out.exitCode).toBe(3);
    expect(out.stderr).toContain("boom");
  });

  it("caps a flood of output and marks it truncated", async () => {
    const out = await runProcess({
      command: process.execPath,
      args: [script("flood")],
      timeoutMs: 10_000,
      maxOutputBytes: 100_000,
    });
    expect(out.exitCode).toBe(0);
    expect(out.truncated).toBe(true);
    expect(Buffer.byteLength(out.stdout)).toBe(100_000);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const pidFile = join(dir, "gc.pid");
    const out = await runProcess({
      command: process.execPath,
      args: [script("grandchild"), pidFile],
      // Long enough for the grandchild to be spawned and recorded under load before the timeout.
      timeoutMs: 5000,
    });
    expect(out.timedOut).toBe(true);
    const pid = Number(await readFile(pidFile, "utf8"));
    expect(await waitGone(pid)).toBe(true);
  });

  it("kills a grandchild left behind by a program that exited normally", async () => {
    const pidFile = join(dir, "orphan.pid");
    const out = await runProcess({
      command: process.execPath,
      args: [script("orphan"), pidFile],
      timeoutMs: 5000,
    });
    // Checked synchronously, before anything else can give the kernel time: the call returns
    // only once the grandchild no longer runs, not merely once it was signalled.
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(running(pid)).toBe(false);
    expect(out.exitCode).toBe(0);
    expect(await waitGone(pid)).toBe(true);
  });

  it("stops the program when the signal aborts and says cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const out = await runProcess({
      command: process.execPath,
      args: [script("hang")],
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    expect(out).toMatchObject({ cancelled: true, timedOut: false, exitCode: null });
  });

  it("does not start at all when the signal is already aborted", async () => {
    const out = await runProcess({
      command: process.execPath,
      args: [script("hang")],
      timeoutMs: 10_000,
      signal: AbortSignal.abort(),
    });
    expect(out.cancelled).toBe(true);
  });

  it("reports a missing program as a spawn error instead of throwing", async () => {
    const out = await runProcess({ command: join(dir, "no-such-cli"), args: [], timeoutMs: 1000 });
    expect(out.spawnError?.code).toBe("ENOENT");
  });
});
