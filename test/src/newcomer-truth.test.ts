import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bugCritique, buggySum, bugJudgment, gitEnv, goodSum } from "./gate-fixtures.js";
import {
  debate,
  exists,
  newcomer,
  newManualDebate,
  type Ran,
  recordedAnswer,
  startHere,
} from "./newcomer.js";
import { replayTournamentArgs } from "./workspace.js";

// A newcomer's walk through the built binary: every message it reads agrees with the files.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("newcomer-truth-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** debate.md's frontmatter, as the files say it. */
async function frontmatter(dir: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(dir, "debate.md"), "utf8");
  return parse(text.split(/^---$/m)[1]!) as Record<string, unknown>;
}

/** `debate status <dir> --json`'s one row. */
function statusRow(dir: string): Record<string, unknown> {
  const status = debate(["status", dir, "--json"], { cwd, env });
  expect(status.code, status.stderr).toBe(0);
  return (JSON.parse(status.stdout) as Record<string, unknown>[])[0]!;
}

describe("the README's first screen, with the built debate", () => {
  it("prints what the files hold: the example, the run's scores, status and the report", async () => {
    const [install, ...commands] = await startHere();
    expect(install).toMatch(/^npm install -g /);
    const ran: Record<string, Ran> = {};
    for (const command of commands) {
      const [name, ...args] = command.split(/\s+/);
      expect(name).toBe("debate");
      const result = debate(args, { cwd, env });
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      ran[args[0]!] = result;
    }
    const folder = commands[0]!.split(/\s+/).at(-1)!;
    const dir = join(cwd, folder);
    expect(ran.example!.stdout).toContain(`created ${folder}`);
    const fm = await frontmatter(dir);
    expect(fm.current_exchange).toBe(fm.exchanges);
    expect(ran.run!.stdout).toContain(`done: complete after ${fm.exchanges} exchange(s)`);

    // Each side's total and argument count, as scores.json and arguments/ hold them.
    const scores = JSON.parse(await readFile(join(dir, "scores.json"), "utf8")) as Record<
      string,
      { current_score: number }
    >;
    const files = await readdir(join(dir, "arguments"));
    const signed = (n: number) => `${n > 0 ? "+" : ""}${n.toFixed(2)}`;
    const row = statusRow(dir);
    const totals: Record<string, number> = {};
    for (const [side, prefix] of [
      ["proposition", "prop_"],
      ["opposition", "opp_"],
    ] as const) {
      const total = Object.entries(scores)
        .filter(([id]) => id.startsWith(prefix))
        .reduce((sum, [, s]) => sum + s.current_score, 0);
      const count = files.filter((f) => f.startsWith(prefix)).length;
      expect(ran.run!.stdout).toMatch(
        new RegExp(`^${side}\\s+${escapeRe(signed(total))} over ${count} arguments$`, "m"),
      );
      expect((row.sides as Record<string, string>)[side]).toBe(signed(total));
      totals[side] = total;
    }
    expect(row.phase).toBe("complete");
    // The winner status names is the side scores.json puts ahead.
    expect(row.winner).toBe(totals.proposition! > totals.opposition! ? "proposition" : "opposition");
    const report = ran.report!.stdout.match(/^wrote (.+)$/m)![1]!.split(", ");
    for (const file of report) expect(await exists(join(cwd, file)), file).toBe(true);
  });
});

describe("a newcomer's manual formal debate with a bad first answer", () => {
  it("is told the truth at every step: new, run, status and log agree with the folder", async () => {
    const made = newManualDebate("This house would write tests first", "walk", { cwd, env });
    expect(made.code, made.stderr).toBe(0);
    // Manual seats are ready offline: nothing to warn about.
    expect(made.stderr).not.toContain("warning:");
    const dir = join(cwd, "walk");

    // The first run writes the prompts and waits for both answers, where status says.
    const first = debate(["run", "walk"], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^waiting: /m);
    const waiting = statusRow("walk");
    expect(waiting.activity).toBe("waiting for inbox/e000-opposition.md, inbox/e000-proposition.md");
    expect(await exists(join(dir, "prompts/e000-proposition.md"))).toBe(true);

    // A bad answer is rejected: the run says so, status names the file to write next, and the
    // log shows the answer as the journal kept it.
    await writeFile(join(dir, "inbox/e000-proposition.md"), "I think the motion is right.\n");
    await writeFile(join(dir, "inbox/e000-opposition.md"), await recordedAnswer(0, "opposition"));
    const rejected = debate(["run", "walk"], { cwd, env });
    expect(rejected.stderr).toContain("answer rejected");
    expect(statusRow("walk").activity).toBe("waiting for inbox/e000-proposition-attempt2.md");
    expect(await exists(join(dir, "prompts/e000-proposition-attempt2.md"))).toBe(true);
    const log = debate(["log", "walk"], { cwd, env });
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toContain("I think the motion is right.");
    let fm = await frontmatter(dir);
    expect(fm.current_exchange).toBe(0);
    expect(await readdir(join(dir, "arguments")).catch(() => [])).toEqual([]);

    // The fixed answer is taken; status's phase and exchange are debate.md's.
    await writeFile(join(dir, "inbox/e000-proposition-attempt2.md"), await recordedAnswer(0, "proposition"));
    const fixed = debate(["run", "walk"], { cwd, env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain("committed exchange 0/5 arguments");
    fm = await frontmatter(dir);
    const row = statusRow("walk");
    expect(row.phase).toBe(fm.current_phase);
    expect(row.exchange).toBe(0);
    expect(row.last_error).toBeUndefined();
    expect((await readdir(join(dir, "arguments"))).filter((f) => f.startsWith("prop_"))).not.toEqual([]);
  });
});

describe("a person whose opening breaks three rules", () => {
  it("is told every problem in one attempt, most basic first, in the terminal and the retry prompt", async () => {
    expect(newManualDebate("This house would pair on every change", "three", { cwd, env }).code).toBe(0);
    const dir = join(cwd, "three");
    expect(debate(["run", "three"], { cwd, env }).code).toBe(0);
    // Two arguments (the opening needs three), the second without its warrant, the first attacking.
    const opening = JSON.parse(await recordedAnswer(0, "proposition")) as {
      arguments: Record<string, unknown>[];
    };
    const [first, second] = opening.arguments;
    const { warrant: _, ...noWarrant } = second!;
    const attack = { target_id: "opp_000a", attack_type: "claim_attack", content: "It fails." };
    const broken = { arguments: [{ ...first, attacks: [attack] }, noWarrant] };
    await writeFile(join(dir, "inbox/e000-proposition.md"), JSON.stringify(broken, null, 2));
    await writeFile(join(dir, "inbox/e000-opposition.md"), await recordedAnswer(0, "opposition"));

    const rejected = debate(["run", "three"], { cwd, env });
    expect(rejected.code, rejected.stderr).toBe(0);
    const order = ["ANSWER_SCHEMA at `arguments[1].warrant`", "ARGUMENT_COUNT", "ARGUMENT_ATTACK_IN_OPENING"];
    const positions = (text: string) => order.map((code) => text.indexOf(code));
    const inTerminal = positions(rejected.stderr);
    expect(
      inTerminal.every((at) => at >= 0),
      rejected.stderr,
    ).toBe(true);
    expect([...inTerminal].sort((a, b) => a - b)).toEqual(inTerminal);
    // The terminal says where the whole list is, and that file holds it in the same order.
    const retry = "prompts/e000-proposition-attempt2.md";
    expect(rejected.stderr).toContain(retry);
    const prompt = await readFile(join(dir, retry), "utf8");
    const inPrompt = positions(prompt);
    expect(inPrompt.every((at) => at >= 0)).toBe(true);
    expect([...inPrompt].sort((a, b) => a - b)).toEqual(inPrompt);
    expect(statusRow("three").activity).toBe("waiting for inbox/e000-proposition-attempt2.md");
  });
});

describe("a newcomer's review of a buggy uncommitted change", () => {
  it("ends as decision.json and summary.md say, leaves the repository's change alone, and the judge gets no formal rubric", async () => {
    const repo = join(root, "repo");
    await mkdir(repo);
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env: gitEnv, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    await writeFile(join(repo, "sum.ts"), goodSum);
    git("add", "sum.ts");
    git("commit", "-q", "-m", "sum");
    await writeFile(join(repo, "sum.ts"), buggySum);

    const seats = ["--critic", "replay", "--author", "replay", "--judge", "replay"];
    const made = debate(["review", "--scope", "uncommitted", ...seats, "--slug", "fix", "--no-run"], {
      cwd: repo,
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain("created debates/fix/debate.md (code)");
    expect(made.stdout).toContain("next: debate run debates/fix");
    const dir = join(repo, "debates/fix");
    expect(await readFile(join(dir, "artifact/v1.md"), "utf8")).toContain("i < xs.length - 1");
    const answers = [
      { role: "critic", text: bugCritique },
      { role: "judge", text: bugJudgment },
      { role: "author", text: `\`\`\`ts\n${goodSum}\`\`\`\n` },
    ];
    await writeFile(
      join(dir, "replay.jsonl"),
      answers.map((a) => `${JSON.stringify({ exchange: 1, ...a })}\n`).join(""),
    );

    const ran = debate(["run", "debates/fix"], { cwd: repo, env });
    expect(ran.code, ran.stderr).toBe(0);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8")) as {
      decision: string;
      rounds: number;
      stop_reason: string;
      findings: { P1: number; P2: number; P3: number };
      final_artifact: string;
    };
    expect(decision).toMatchObject({ decision: "B", rounds: 1, stop_reason: "decision" });
    expect(ran.stdout).toContain(
      `done: decision B: accept the critique (${decision.stop_reason}) after ${decision.rounds} round(s)`,
    );
    // summary.md lists each finding once, as decision.json counts them.
    const summary = await readFile(join(dir, "summary.md"), "utf8");
    const p1 = summary.split("### P1")[1]!.split("###")[0]!;
    expect(p1.match(/^- r\d+-/gm) ?? []).toHaveLength(decision.findings.P1);
    expect(summary).toContain(decision.final_artifact);
    expect(await readFile(join(dir, decision.final_artifact), "utf8")).toContain("i < xs.length;");

    // status says what debate.md and decision.json hold; doctor finds nothing to fix.
    const fm = await frontmatter(dir);
    const row = statusRow(dir);
    expect(row.phase).toBe(fm.current_phase);
    expect(row.phase).toBe("complete");
    expect(String(row.result)).toMatch(new RegExp(`^${decision.decision}: `));
    const doctor = debate(["doctor", "debates/fix"], { cwd: repo, env });
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);

    // The review judge is told the review's rubric, never the formal format's zero-sum scoring.
    const journal = join(dir, ".debate/journal");
    const judged = (await readdir(journal)).find((f) => f.includes("-judge-"))!;
    const prompt = (JSON.parse(await readFile(join(journal, judged), "utf8")) as { prompt: string }).prompt;
    expect(prompt).toContain("recommendation");
    expect(prompt).not.toContain("judging-rubric");
    expect(prompt).not.toMatch(/sum to 0|zero-sum/i);

    // The user's change is theirs: the review never edits the working tree.
    expect(await readFile(join(repo, "sum.ts"), "utf8")).toBe(buggySum);
    expect(git("status", "--porcelain").split("\n").filter(Boolean).sort()).toEqual([
      " M sum.ts",
      "?? debates/",
    ]);
  });
});

describe("a debate made but never run", () => {
  it("is reported as not started: no tie, no empty score line, no judge said to be missing", async () => {
    expect(newManualDebate("This house would test first", "fresh", { cwd, env }).code).toBe(0);
    const report = debate(["report", "fresh"], { cwd, env });
    expect(report.code, report.stderr).toBe(0);
    const text = await readFile(join(cwd, "fresh/report.md"), "utf8");
    expect(text).toMatch(/\| Status \| not started \|/);
    expect(text).not.toMatch(/tied|0\.00 to 0\.00|Cumulative score|\(not recorded\)/);
    // Nothing ran: no judge gave a judgment, and no journal is missing, none was due.
    expect(text).not.toMatch(/gave every judgment|written by hand|by dialectic/);
    expect(text).toContain("no judgment yet: nothing is committed");
    expect(text).toContain("nothing recorded yet: no seat call has ended");
    expect(await readdir(join(cwd, "fresh/arguments")).catch(() => [])).toEqual([]);
  });
});

describe("doctor on a debate whose judge panel holds a CLI that is not installed", () => {
  it("checks the panel's judges, which `seats:` does not hold, and does not say ready", async () => {
    const seats = ["--proposition", "manual", "--opposition", "manual", "--judges", "manual,claude"];
    const made = debate(["new", "This house would test first", ...seats, "--slug", "pan", "--dir", "."], {
      cwd,
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const fm = await frontmatter(join(cwd, "pan"));
    expect(fm.judges).toMatchObject({ panel: [{ adapter: "manual" }, { adapter: "claude" }] });
    // PATH holds node alone: no CLI is installed.
    const bare = { ...env, PATH: dirname(process.execPath) };
    const doctor = debate(["doctor", "pan"], { cwd, env: bare });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^✗ judge_2 \(claude\)\s+no\b/m);
    expect(doctor.stderr).toContain("debate: seat(s) not ready: judge_2");
    // What to do is said for that judge.
    expect(doctor.stdout).toMatch(/^judge_2 \(claude\): install Claude Code/m);
  });
});

describe("a newcomer's tournament", () => {
  it("finishes as each of its debates' files say: status, the tournament's status and debate.md agree", async () => {
    const created = debate(replayTournamentArgs("cup"), { cwd, env });
    expect(created.code, created.stderr).toBe(0);
    const ran = debate(["tournament", "run", "cup"], { cwd, env });
    expect(ran.code, ran.stderr).toBe(0);
    const summary = debate(["tournament", "status", "cup"], { cwd, env });
    expect(summary.stdout).toMatch(/^cup: finished; 4 done, 0 failed/m);

    const folders = (await readdir(join(cwd, "cup/debates"))).sort();
    expect(folders).toHaveLength(4);
    const table = debate(["status", "cup/debates"], { cwd, env }).stdout;
    for (const name of folders) {
      const dir = join(cwd, "cup/debates", name);
      const fm = await frontmatter(dir);
      const row = statusRow(dir);
      expect(row.phase).toBe("complete");
      expect(fm.current_phase).toBe("complete");
      expect(row.winner).toBe(fm.winner);
      // The table gives the verdict once, as the RESULT; crossfire has no score columns.
      expect(table).toMatch(new RegExp(`^cup/debates/${name}\\s+complete\\s+1/1\\s+${fm.winner}\\s`, "m"));
      // The tournament names the winner by its seat: the winning role's adapter and model in debate.md.
      const seat = (fm.seats as Record<string, { adapter: string; model?: string }>)[String(fm.winner)]!;
      expect(summary.stdout).toMatch(
        new RegExp(`^\\s+${name}\\s+done\\s+${seat.adapter}:${seat.model}$`, "m"),
      );
    }
  });
});
