import { spawn } from "node:child_process";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, newcomer, until } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Bad input and signals, as a newcomer meets them: through the built binary, on real folders.
const example = join(repoRoot, "examples/ai-review-gate");
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("newcomer-errors-"));
  await cp(example, join(cwd, "ok"), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function start(args: string[]) {
  const child = spawn(process.execPath, [debateBin, ...args], { cwd, env });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  const exit = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  return { child, exit, stderr: () => stderr };
}

describe("bad paths and usage errors", () => {
  it("run accepts the debate.md itself, and refuses other paths with one line and exit 2", () => {
    expect(debate(["run", "ok/debate.md", "--exchanges", "1"], { cwd, env }).code).toBe(0);
    for (const [arg, message] of [
      ["nope", "debate: nope: no such folder\n"],
      [
        "ok/replay.jsonl",
        "debate: ok/replay.jsonl: not a folder (give the debate's folder, the one holding debate.md)\n",
      ],
      ["ok/replay.jsonl/debate.md", "debate: ok/replay.jsonl/debate.md: no such folder\n"],
      [".", "debate: .: not a debate folder (it holds no debate.md)\n"],
    ] as const) {
      const run = debate(["run", arg], { cwd, env });
      expect(run.stderr, arg).toBe(message);
      expect(run.code, arg).toBe(2);
    }
  });

  it("status and watch of a missing folder fail instead of reporting nothing", () => {
    const status = debate(["status", "nope"], { cwd, env });
    expect([status.code, status.stderr]).toEqual([2, "debate: nope: no such folder\n"]);
    const watch = debate(["watch", "nope"], { cwd, env });
    expect(watch.code).toBe(2);
    expect(watch.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("new with a model name as the adapter names the flag and lists the adapters, writing nothing", () => {
    const made = debate(["new", "This house would x", "--proposition", "gpt5", "--opposition", "claude"], {
      cwd,
      env,
    });
    expect(made.code).toBe(2);
    expect(made.stderr).toMatch(
      /^debate: --proposition gpt5: no adapter of that name \(the adapters: claude, .*replay\)/,
    );
    expect(made.stderr).not.toContain("debate.md:");
    expect(debate(["status", "debates"], { cwd, env }).code).toBe(2);
  });

  it("a usage error is one line, never the whole help", () => {
    for (const args of [["run"], ["stauts"], ["status", "--bogus"], ["new"]]) {
      const run = debate(args, { cwd, env });
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(run.stderr).toMatch(/^error: .* \(see --help\)\n$/);
    }
    expect(debate(["stauts"], { cwd, env }).stderr).toContain("Did you mean status?");
  });
});

describe("run --wait", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "stops at the first %s while waiting for the lock",
    async (signal) => {
      const dir = join(cwd, `slow-${signal}`);
      await cp(example, dir, { recursive: true });
      const lines = (await readFile(join(dir, "replay.jsonl"), "utf8")).trim().split("\n");
      await writeFile(
        join(dir, "replay.jsonl"),
        `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: 2000 })).join("\n")}\n`,
      );
      const holder = start(["run", `slow-${signal}`]);
      try {
        await until("the first run to start a seat", () => holder.stderr().includes("thinking"));
        const waiter = start(["run", `slow-${signal}`, "--wait"]);
        await until("the second run to wait for the lock", () =>
          waiter.stderr().includes("release the lock"),
        );
        const sent = Date.now();
        waiter.child.kill(signal);
        expect(await waiter.exit).toBe(130);
        expect(Date.now() - sent).toBeLessThan(10_000);
        expect(waiter.stderr()).toMatch(/stopped while waiting for pid \d+/);
        // The holder was not disturbed.
        expect(holder.child.exitCode).toBeNull();
      } finally {
        holder.child.kill("SIGKILL");
        await holder.exit;
      }
    },
  );
});
