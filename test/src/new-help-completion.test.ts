import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, exists, newcomer, newManualDebate, until } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Items 10 and 11 (in part): per-seat model and effort on `new`, help that lists the adapters and
// shows examples, shell completion (bash run for real).
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("new-help-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("debate new and help", () => {
  it("new takes each seat's model and effort after its adapter", async () => {
    const made = debate(
      [
        "new",
        "This house would write tests first",
        "--proposition",
        "claude:sonnet:high",
        "--opposition",
        "codex:gpt-5.5",
        "--judge",
        "gemini",
      ],
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    const text = await readFile(join(cwd, "debates/write-tests-first/debate.md"), "utf8");
    expect(text).toMatch(
      /proposition:[^\n]*adapter: claude[^\n]*model: sonnet[^\n]*effort: high|proposition:\n\s+adapter: claude\n\s+model: sonnet\n\s+effort: high/,
    );
    expect(text).toMatch(
      /opposition:[^\n]*adapter: codex[^\n]*model: gpt-5.5|opposition:\n\s+adapter: codex\n\s+model: gpt-5.5/,
    );
    const bad = debate(["new", "This house would nap", "--judge", "codex:gpt-5.5:extreme"], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'debate: --judge codex:gpt-5.5:extreme: effort must be one of low, medium, high, max, got "extreme"\n',
    );
  });

  it("new writes definitions and scope under the motion, and the seats' prompts carry them", async () => {
    const made = debate(
      [
        "new",
        "This house would pair on every change",
        "--proposition",
        "manual",
        "--opposition",
        "manual",
        "--judge",
        "manual",
        "--define",
        "pair=two people at one change",
        "--define",
        "change=a pull request",
        "--scope",
        "Teams of four to ten engineers.",
      ],
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    const text = await readFile(join(cwd, "debates/pair-on-every-change/debate.md"), "utf8");
    expect(text).toContain(
      "## Definitions\n\n- **pair**: two people at one change\n- **change**: a pull request\n\n## Scope\n\nTeams of four to ten engineers.",
    );
    expect(debate(["run", "debates/pair-on-every-change"], { cwd, env }).code).toBe(0);
    const prompt = await readFile(
      join(cwd, "debates/pair-on-every-change/prompts/e000-proposition.md"),
      "utf8",
    );
    expect(prompt).toContain("- **pair**: two people at one change");
    expect(prompt).toContain("Teams of four to ten engineers.");
    const bad = debate(["new", "This house would nap", "--define", "nap"], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^debate: --define nap: expected <term>=<meaning>/);
  });

  it("help texts start in lower case, like commander's own", () => {
    const help = debate(["--help"], { cwd, env }).stdout;
    const described = help
      .split("Commands:\n")[1]!
      .split("\n")
      .filter((l) => /^ {2}\S/.test(l));
    for (const line of described) expect(line.replace(/^ {2}\S.*?\s{2,}/, "")).toMatch(/^[a-z]/);
  });

  it("new --help lists the adapters, says which work offline, and every everyday command has examples", () => {
    const help = debate(["new", "--help"], { cwd, env }).stdout;
    expect(help).toMatch(/Adapters: [a-z, ]*claude[a-z, ]*manual[a-z, ]*replay/);
    expect(help).toContain("manual and replay work offline");
    expect(help).toContain("--proposition claude:sonnet:high");
    // Examples may first make the debate they use (`debate example ...`); each shows the command itself.
    for (const command of ["new", "run", "status", "report", "watch", "reset", "log", "completion"]) {
      const text = debate([command, "--help"], { cwd, env }).stdout;
      expect(text, command).toContain("Examples:\n  $ debate ");
      expect(text.slice(text.indexOf("Examples:")), command).toContain(`\n  $ debate ${command}`);
    }
  });
});

describe("debate completion", () => {
  const complete = (words: string[]) =>
    spawnSync(
      "bash",
      [
        "-c",
        `source <("$0" "$1" completion bash); COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _debate; printf '%s\\n' "\${COMPREPLY[@]}"`,
        process.execPath,
        debateBin,
      ],
      { cwd, env, encoding: "utf8" },
    )
      .stdout.trim()
      .split("\n");

  it("bash completes commands, and a command's options from its own definition", () => {
    expect(complete(["debate", "re"]).sort()).toEqual(["report", "reset", "review"]);
    expect(complete(["debate", "reset", "--"]).sort()).toEqual(["--help", "--to"]);
    expect(complete(["debate", "run", "--ver"])).toEqual(["--verbose"]);
  });

  /** Runs `script` in Debian's zsh or fish (scripts/install-shells.mjs installs them). */
  const inShell = (shell: "zsh" | "fish", script: string) => {
    if (!existsSync(`/usr/bin/${shell}`))
      throw new Error(`/usr/bin/${shell} is missing: run \`node scripts/install-shells.mjs\``);
    const ran = spawnSync(`/usr/bin/${shell}`, ["-c", script, process.execPath, debateBin], {
      cwd,
      env,
      encoding: "utf8",
    });
    expect(ran.status, ran.stderr).toBe(0);
    return ran.stdout.trim().split("\n");
  };

  it("zsh runs its script (bash completion through bashcompinit) and gets the same candidates", () => {
    // zsh filters the candidates by what was typed itself; the script gives the command's own words.
    const zsh = (words: string[]) =>
      inShell(
        "zsh",
        `source <("$0" "$1" completion zsh); setopt ksharrays; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _debate; print -rl -- "\${COMPREPLY[@]}"`,
      );
    expect(zsh(["debate", "re"])).toEqual(expect.arrayContaining(["report", "reset", "review"]));
    expect(zsh(["debate", "reset", "--"]).sort()).toEqual(["--help", "--to"]);
  });

  it("fish completes commands, with their descriptions, and a command's options", () => {
    const fish = (line: string) =>
      inShell("fish", `"$argv[1]" "$argv[2]" completion fish | source; complete -C "${line}"`).map(
        (l) => l.split("\t")[0],
      );
    expect(fish("debate re").sort()).toEqual(["report", "reset", "review"]);
    expect(fish("debate reset --").sort()).toEqual(["--help", "--to"]);
  });

  it("zsh and fish get their own scripts; an unknown shell is a usage error", () => {
    expect(debate(["completion", "zsh"], { cwd, env }).stdout).toContain("bashcompinit");
    const fish = debate(["completion", "fish"], { cwd, env }).stdout;
    expect(fish).toContain("complete -c debate -n '__fish_seen_subcommand_from reset' -l to");
    const bad = debate(["completion", "tcsh"], { cwd, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*tcsh.*\(see --help\)\n$/);
  });
});

describe("the config file", () => {
  it("gives new its seats, effort and folder: the user's file, then the project's (package.json#debatekit), then flags", async () => {
    const home = env.HOME!;
    await mkdir(join(home, ".config/debatekit"), { recursive: true });
    await writeFile(
      join(home, ".config/debatekit/config.yaml"),
      "seats:\n  judge: gemini:gemini-2.5-pro\neffort: low\n",
    );
    const project = join(cwd, "project");
    await mkdir(join(project, "sub"), { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        name: "p",
        debatekit: { seats: { proposition: "claude:sonnet:high", opposition: "manual" }, dir: "talks" },
      }),
    );
    const made = debate(["new", "This house would nap", "--opposition", "codex"], {
      cwd: join(project, "sub"),
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const text = await readFile(join(project, "sub/talks/nap/debate.md"), "utf8");
    expect(text).toMatch(/proposition:\n\s+adapter: claude\n\s+effort: high\n\s+model: sonnet/);
    expect(text).toMatch(/opposition:\n\s+adapter: codex\n\s+effort: low/);
    expect(text).toMatch(/- adapter: gemini\n\s+effort: low\n\s+model: gemini-2.5-pro/);
    // A bad value is refused with the file and the field, exit 2, nothing created.
    await writeFile(join(project, "package.json"), JSON.stringify({ debatekit: { effort: "extreme" } }));
    const bad = debate(["new", "This house would nap again"], { cwd: join(project, "sub"), env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^debate: \.\.\/package\.json: `effort` must be one of .*extreme/);
    await rm(join(home, ".config/debatekit"), { recursive: true });
  });

  it("gives review its seats (with model and effort), effort and folder; a flag wins", async () => {
    const project = join(cwd, "reviewing");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "debatekit.config.yaml"),
      "seats:\n  critic: codex:gpt-5.5\n  author: claude\neffort: high\ndir: reviews\n",
    );
    const made = debate(["review", "--text", "Cache every response for a day.", "--no-run", "--json"], {
      cwd: project,
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const { dir } = JSON.parse(made.stdout) as { dir: string };
    expect(dir.startsWith(join(project, "reviews"))).toBe(true);
    const text = await readFile(join(dir, "debate.md"), "utf8");
    expect(text).toMatch(
      /critic: \{ adapter: codex, effort: high, model: gpt-5\.5 \}|critic:\n\s+adapter: codex\n\s+effort: high\n\s+model: gpt-5\.5/,
    );
    expect(text).toMatch(
      /author: \{ adapter: claude, effort: high \}|author:\n\s+adapter: claude\n\s+effort: high/,
    );
    const flag = debate(
      [
        "review",
        "--text",
        "Cache every response for an hour.",
        "--critic",
        "gemini",
        "--slug",
        "flagged",
        "--no-run",
        "--json",
      ],
      { cwd: project, env },
    );
    expect(flag.code, flag.stderr).toBe(0);
    const flagged = await readFile(join(JSON.parse(flag.stdout).dir, "debate.md"), "utf8");
    expect(flagged).toMatch(
      /critic: \{ adapter: gemini, effort: high \}|critic:\n\s+adapter: gemini\n\s+effort: high/,
    );
  });

  it("adds its skill folders to a run (relative to the config file)", async () => {
    const project = join(cwd, "skilled");
    await teamSkills(project);
    expect(newManualDebate("This house would write tests first", "t", { cwd: project, env }).code).toBe(0);
    expect(debate(["run", "t"], { cwd: project, env }).code).toBe(0);
    expect(await readFile(join(project, "t/prompts/e000-proposition.md"), "utf8")).toContain(
      "## Skill: team-testing",
    );
  });

  it("adds its skill folders to the debates `debate watch` runs too", async () => {
    const project = join(cwd, "skilled-watch");
    await teamSkills(project);
    expect(newManualDebate("This house would write tests first", "w", { cwd: project, env }).code).toBe(0);
    const watcher = spawn(process.execPath, [debateBin, "watch", "w", "--json"], {
      cwd: project,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    watcher.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => watcher.on("close", (code) => done(code)));
    try {
      const prompt = join(project, "w/prompts/e000-proposition.md");
      await until("watch to write the proposition's prompt", () => exists(prompt), 90_000);
      expect(await readFile(prompt, "utf8")).toContain("## Skill: team-testing");
    } finally {
      watcher.kill("SIGTERM");
      await exited;
    }
    expect(stderr).not.toMatch(/skills: /);
  });
});

/** A project whose config file names `team-skills/`, holding one skill, team-testing. */
async function teamSkills(project: string): Promise<void> {
  await cp(join(repoRoot, "skills/testing-claims"), join(project, "team-skills/team-testing"), {
    recursive: true,
  });
  const manifest = join(project, "team-skills/team-testing/manifest.json");
  await writeFile(
    manifest,
    (await readFile(manifest, "utf8")).replace('"name": "testing-claims"', '"name": "team-testing"'),
  );
  await writeFile(join(project, "debatekit.config.yaml"), "skills:\n  folders: [team-skills]\n");
}

describe("debate doctor <folder>", () => {
  it("says replay seats work offline, gives each note once, and only for the adapters the seats use", async () => {
    const dir = join(cwd, "doc");
    await cp(join(repoRoot, "examples/ai-review-gate"), dir, { recursive: true });
    const ok = debate(["doctor", "doc"], { cwd, env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(
      /^✓ judge \(replay\)\s+built in\s+-\s+offline \(answers from files, no credentials\)$/m,
    );
    // No CLI is installed here, but this debate uses none: no install notes for them.
    expect(ok.stdout).not.toContain("install Claude Code");
    const file = join(dir, "debate.md");
    await writeFile(
      file,
      (await readFile(file, "utf8"))
        .replace(
          "judge: { adapter: replay, file: replay.jsonl }",
          "judge: { adapter: replay, file: gone.jsonl }",
        )
        .replace(
          "opposition: { adapter: replay, file: replay.jsonl }",
          "opposition: { adapter: replay, file: gone.jsonl }",
        ),
    );
    const broken = debate(["doctor", "doc"], { cwd, env });
    expect(broken.code).toBe(1);
    expect(broken.stdout.match(/gone\.jsonl does not exist/g)).toHaveLength(1);
    expect(broken.stdout).toContain(
      "opposition (replay), judge (replay): replay file gone.jsonl does not exist",
    );
  });
});
