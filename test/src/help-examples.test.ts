import { spawn, spawnSync } from "node:child_process";
import { cp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buggySum, gitEnv, goodSum } from "./gate-fixtures.js";
import { debate, debateBin, newcomer, type Ran } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Every example a `--help` shows is run through the built binary, each command's examples in order
// from an empty folder of their own, as a reader would follow them: what an example names, an
// earlier example of the same help made (`debate example ...` copies an offline debate). The gate's
// examples review a change, so theirs is a git repository with a change on a branch and a policy.
// No seat's CLI is on PATH (only node, git and a do-nothing browser), so nothing calls a model or
// the network: an example that needs one must end with a clear error, never with commander's usage
// error.

/** What commander prints when an example's words do not match the command's declaration. */
const usageError = /error: (missing required argument|unknown option|too many arguments|unknown command)/;

/**
 * The exit code each example must end with, by its text as `--help` shows it. A new example fails
 * the test until it is listed here with what it should do.
 */
const expectedExit: Record<string, number | "any"> = {
  'debate new "This house would write tests first"': 0,
  'debate new "This house would ship on Fridays" --proposition claude:sonnet --opposition codex:gpt-5.5:high --judge gemini': 0,
  'debate new "This house would pair on every change" --proposition manual --opposition manual --judge manual': 0,
  'debate new --format crossfire "gRPC or REST for the public API" --proposer claude --challenger codex': 0,
  // codex and claude are not installed: the gate cannot decide.
  "debate gate --scope base:main --critic codex --judge claude": 2,
  "debate gate --scope range:$BASE..$HEAD --policy .github/debate-gate.yml --sarif gate.sarif --comment gate.md": 2,
  "debate example ai-review-gate debates/tests-first": 0,
  "debate run debates/tests-first": 0,
  "debate run debates/tests-first --exchanges 2": 0,
  "debate run debates/tests-first --fresh": 0,
  "debate run debates/tests-first --verbose": 0,
  "debate doctor debates/tests-first": 0,
  "debate allow debates/tests-first": 0,
  "debate deny debates/tests-first": 0,
  "debate status": 0,
  "debate status debates/tests-first --json": 0,
  "debate reset debates/tests-first": 0,
  "debate reset debates/tests-first --to 2": 0,
  "debate log debates/tests-first": 0,
  "debate log debates/tests-first --step 2:judge": 0,
  "debate log debates/tests-first --step 0 --json": 0,
  "debate report debates/tests-first": 0,
  "debate report debates/tests-first --open": 0,
  // Stopped by SIGTERM after its first line: exit 0.
  "debate watch": 0,
  "debate watch debates/tests-first --json": 0,
  "debate serve": 0,
  "debate serve --open": 0,
  "debate serve debates/tests-first --port 8800": 0,
  "debate example tournament-replay tr": 0,
  "debate tournament new t/ --motions tr/motions.jsonl --seats replay:alice,replay:bob,replay:carol --judges replay --format crossfire --rounds 1 --replay tr/recordings": 0,
  "debate tournament plan t/": 0,
  "debate tournament run t/ --concurrency 4": 0,
  "debate tournament status t/": 0,
  "debate tournament report t/": 0,
  "debate example": 0,
  "debate example ai-review-gate my-debate": 0,
  "debate completion bash > ~/.local/share/bash-completion/completions/debate": 0,
  "source <(debate completion zsh)": 0,
  "debate completion fish > ~/.config/fish/completions/debate.fish": 0,
};

/** What some examples must print (stdout and stderr together), where that is cheap to say. */
const expectedText: Record<string, RegExp> = {
  "debate run debates/tests-first --exchanges 2": /stopped at --exchanges 2|exchange 2/,
  "debate run debates/tests-first --verbose": /done: complete after 5 exchange\(s\)/,
  "debate reset debates/tests-first --to 2": /exchange 2/,
  "debate tournament run t/ --concurrency 4": /12 done/,
  "debate tournament report t/": /replay:alice/,
  "debate watch": /watching debates/,
  "debate serve": /^debate serve: open http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+\/\?token=/,
  "debate status": /debates\/tests-first/,
  "debate example": /ai-review-gate/,
  "debate log debates/tests-first --step 2:judge": /judge/,
  "debate completion bash > ~/.local/share/bash-completion/completions/debate":
    /complete .*-F _debate debate/,
};

/** Commands that run until stopped: started, stopped after their first line. */
const longRunning = new Set(["watch", "serve"]);

let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

/** The subcommands a `--help` lists under "Commands:" (the `help` command left out). */
function subcommandsOf(help: string): string[] {
  const section = /^Commands:\n((?:.+\n?)+)/m.exec(help)?.[1] ?? "";
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== "help");
}

/** The example lines of a `--help`: each line of an "Examples:" block, without its `$ ` and `# comment`. */
function examplesOf(help: string): string[] {
  return [...help.matchAll(/^Examples:\n((?:[ \t]+\S.*\n?)+)/gm)].flatMap((block) =>
    block[1]!
      .split("\n")
      .map((line) =>
        line
          .trim()
          .replace(/^\$ /, "")
          .replace(/\s+#.*$/, ""),
      )
      .filter((line) => line !== ""),
  );
}

/** Every command path (e.g. ["tournament", "run"]) with the examples its `--help` shows. */
function helpExamples(path: string[] = []): { command: string[]; examples: string[] }[] {
  const help = debate([...path, "--help"], { cwd, env });
  expect(help.code, `debate ${path.join(" ")} --help: ${help.stderr}`).toBe(0);
  const here = path.length > 0 ? [{ command: path, examples: examplesOf(help.stdout) }] : [];
  return [...here, ...subcommandsOf(help.stdout).flatMap((name) => helpExamples([...path, name]))];
}

/** The words an example passes to `debate`, as a shell would: quotes kept together, `$VAR` read from env, a redirect and `source <(...)` left to the test. */
function argvOf(example: string): string[] {
  const command = example.replace(/^source <\((.*)\)$/, "$1").replace(/\s+>\s+\S+$/, "");
  const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) =>
    (m[1] ?? m[2]!).replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? ""),
  );
  expect(words[0], example).toBe("debate");
  return words.slice(1);
}

/** Starts a command that runs until stopped, stops it (SIGTERM) after its first line, and waits for it. */
function runUntilFirstLine(args: string[], where: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [debateBin, ...args], { cwd: where, env });
    let stdout = "";
    let stderr = "";
    const stopOnLine = () => {
      // Once: a second signal would force the exit.
      if (`${stdout}${stderr}`.includes("\n") && child.signalCode === null && !child.killed)
        child.kill("SIGTERM");
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      stopOnLine();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
      stopOnLine();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, stdout, stderr: `${stderr}${signal ? `(killed by ${signal})` : ""}` });
    });
  });
}

function git(args: string[]): void {
  const ran = spawnSync("git", args, { cwd, env: { ...gitEnv, ...env }, encoding: "utf8" });
  if (ran.status !== 0) throw new Error(`git ${args.join(" ")}: ${ran.stderr}`);
}

/** A PATH with node, git and a do-nothing browser only: no seat's CLI can be found. */
async function barePath(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const git = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  await symlink(process.execPath, join(dir, "node"));
  await symlink(git, join(dir, "git"));
  await writeFile(join(dir, "browser"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return `${dir}:${dirname("/bin/sh")}`;
}

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("help-examples-"));
  env = {
    ...env,
    PATH: await barePath(join(root, "bin")),
    BROWSER: join(root, "bin", "browser"),
    XDG_STATE_HOME: join(root, "home", ".local", "state"),
  };
  // A repository with a buggy change on a branch off main; the policy is in the base revision.
  git(["init", "-q", "-b", "main"]);
  await mkdir(join(cwd, ".github"));
  await cp(join(repoRoot, "examples/gate/policy.yml"), join(cwd, ".github/debate-gate.yml"));
  await writeFile(join(cwd, "sum.ts"), goodSum);
  git(["add", "."]);
  git(["commit", "-q", "-m", "sum"]);
  git(["checkout", "-q", "-b", "change"]);
  await writeFile(join(cwd, "sum.ts"), buggySum);
  git(["commit", "-q", "-am", "faster sum"]);
  env = { ...env, BASE: "main", HEAD: "change" };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("every example in every --help", () => {
  it("runs through the built debate without a usage error, and ends as expected", async () => {
    const found = helpExamples();
    const examples = found.flatMap((c) => c.examples.map((example) => ({ command: c.command, example })));
    expect(examples.length).toBeGreaterThan(20);
    expect(
      examples.filter((e) => !(e.example in expectedExit)).map((e) => e.example),
      "examples with no expected exit code in this test",
    ).toEqual([]);
    const outcomes: string[] = [];
    for (const { command, example } of examples) {
      const args = argvOf(example);
      // Each command's examples run in order in an empty folder of their own (the gate's: a repository).
      const where = command[0] === "gate" ? cwd : join(root, "from-empty", command.join("-"));
      await mkdir(where, { recursive: true });
      const ran = longRunning.has(args[0]!)
        ? await runUntilFirstLine(args, where)
        : debate(args, { cwd: where, env });
      const said = `${ran.stdout}${ran.stderr}`;
      const usage = usageError.exec(said)?.[0];
      const expected = expectedExit[example];
      const text = expectedText[example];
      if (usage || (expected !== "any" && ran.code !== expected) || (text && !text.test(said)))
        outcomes.push(
          `${example}: exit ${ran.code}${usage ? ` (${usage})` : ""}: ${ran.stderr.slice(0, 300)}`,
        );
    }
    expect(outcomes).toEqual([]);
  }, 900_000);
});
