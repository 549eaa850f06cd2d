import { spawn, spawnSync } from "node:child_process";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, newcomer, newManualDebate, until } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Progress while running (item 9): through the built binary, on a pseudo-terminal made by util-linux
// `script` (the live line, colour) and through a pipe (one line per event).
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
/** A terminal user's environment: no CI, colour allowed. */
let tty: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("progress-"));
  const { CI: _ci, NO_COLOR: _nc, ...rest } = env;
  tty = { ...rest, TERM: "xterm-256color" };
  await cp(join(repoRoot, "examples/ai-review-gate"), join(cwd, "d"), { recursive: true });
  expect(newManualDebate("This house would ban meetings on Fridays", "m", { cwd, env }).code).toBe(0);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `debate <args>` on a pseudo-terminal: what the terminal received. */
function onTerminal(args: string[]): { code: number | null; screen: string } {
  const command = [process.execPath, debateBin, ...args]
    .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
    .join(" ");
  const ran = spawnSync("script", ["-qec", command, "/dev/null"], {
    cwd,
    env: tty,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: ran.status, screen: ran.stdout };
}

describe("progress of debate run", () => {
  it("through a pipe: exchange N/total on every line, and the standing after each judgment", () => {
    const run = debate(["run", "d", "--exchanges", "2"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("exchange 0/5 · proposition (replay) thinking (attempt 1)");
    expect(run.stderr).toContain(
      "committed exchange 0/5 judgment\nstanding: proposition +0.15 · opposition -0.15\n",
    );
    expect(run.stderr).toContain(
      "committed exchange 1/5 judgment\nstanding: proposition +0.40 · opposition -0.50\n",
    );
    // An arguments step moves no score: no standing line after it.
    expect(run.stderr).not.toMatch(/arguments\nstanding:/);
  });

  it("on a terminal: one live line that is redrawn, colour, and the standing in bold", () => {
    const { code, screen } = onTerminal(["run", "d"]);
    expect(code).toBe(0);
    expect(screen).toContain("\r\u001b[K");
    expect(screen).toMatch(/proposition \(replay\) thinking \d+\.\ds/);
    expect(screen).toContain("\u001b[1mstanding: proposition +0.20 · opposition -0.65\u001b[0m");
    expect(screen).toContain("\u001b[32mdone\u001b[0m: complete after 5 exchange(s)");
  });

  it("a manual seat waits for its inbox file, never 'thinking', on a terminal and through a pipe", () => {
    const { screen } = onTerminal(["run", "m"]);
    expect(screen).toMatch(/proposition \(manual\) waiting for inbox\/e000-proposition\.md \d+\.\ds/);
    expect(screen).not.toMatch(/\(manual\) thinking/);
    const piped = debate(["run", "m"], { cwd, env });
    expect(piped.stderr).toContain(
      "exchange 0/5 · opposition (manual) waiting for inbox/e000-opposition.md (prompt in prompts/e000-opposition.md)",
    );
    expect(piped.stderr).not.toContain("thinking");
  });
});

describe("debate watch on a terminal", () => {
  it("its live line counts paused and failed debates apart from waiting and done ones", async () => {
    const watched = join(cwd, "watched");
    await cp(join(repoRoot, "examples/ai-review-gate"), join(watched, "fails"), { recursive: true });
    await cp(join(repoRoot, "examples/ai-review-gate"), join(watched, "paused"), { recursive: true });
    const edit = async (dir: string, from: string, to: string) => {
      const file = join(watched, dir, "debate.md");
      await writeFile(file, (await readFile(file, "utf8")).replace(from, to));
    };
    await edit(
      "fails",
      "judge: { adapter: replay, file: replay.jsonl }",
      "judge: { adapter: replay, file: gone.jsonl }",
    );
    await edit("paused", "retries: 2\n", "retries: 2\npaused: true\n");
    const command = `'${process.execPath}' '${debateBin}' watch watched`;
    const child = spawn("script", ["-qec", command, "/dev/null"], { cwd, env: tty });
    let screen = "";
    const closed = new Promise((done) => child.on("close", done));
    try {
      await until("the live line to count the failed debate", async () => {
        screen += child.stdout.read()?.toString() ?? "";
        return screen.includes("1 paused · 1 failed");
      });
      expect(screen).toContain(
        "\r\u001b[K\u001b[2m2 watched · 0 running · 0 waiting · 0 done · 1 paused · 1 failed",
      );
    } finally {
      child.kill("SIGTERM");
      await closed;
    }
  });
});
