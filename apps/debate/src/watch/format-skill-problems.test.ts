import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIO } from "../output.js";
import type { WatchEvent } from "./events.js";
import { createWatchPrinter } from "./format.js";

function captureIO(): { io: CliIO; out: () => string } {
  const stdout = Object.assign(new PassThrough(), { isTTY: false });
  const stderr = Object.assign(new PassThrough(), { isTTY: false });
  let out = "";
  stdout.on("data", (d) => (out += d));
  return { io: { stdout, stderr, env: { NO_COLOR: "1" }, cwd: "/w" }, out: () => out };
}

const at = "2026-11-22T10:11:12.000Z";
const problem: WatchEvent = {
  at,
  type: "skill_problem",
  dir: "/w/debates/d1",
  role: "proposition",
  code: "SKILL_ENTRY_FRONTMATTER",
  severity: "error",
  file: "/w/skills/bad/SKILL.md",
  field: "entry_file",
  skill: "bad",
  message: "entry file frontmatter is not valid YAML: unexpected end of the stream",
};
const started: WatchEvent = { at, type: "run_started", dir: "/w/debates/d1", reasons: ["debate.md"] };
const finished: WatchEvent = {
  at,
  type: "run_finished",
  dir: "/w/debates/d1",
  unit: "exchange",
  status: "done",
  exchange: 1,
  phase: "awaiting_arguments",
  committed: 0,
  reason: "complete after 1 exchange(s)",
};

describe("createWatchPrinter: skill_problem", () => {
  it("prints a skill problem once per debate with file and field, without news from the runs after", () => {
    const { io, out } = captureIO();
    const printer = createWatchPrinter(io, {});
    for (const event of [started, problem, finished, started, problem, finished]) printer.onEvent(event);
    printer.onEvent({ ...problem, dir: "/w/debates/d2" });
    printer.stop();
    expect(out()).toBe(
      [
        "10:11:12 debates/d1: skills: error SKILL_ENTRY_FRONTMATTER /w/skills/bad/SKILL.md (entry_file): entry file frontmatter is not valid YAML: unexpected end of the stream",
        "10:11:12 debates/d1: done: complete after 1 exchange(s) [exchange 1 awaiting_arguments]",
        "10:11:12 debates/d2: skills: error SKILL_ENTRY_FRONTMATTER /w/skills/bad/SKILL.md (entry_file): entry file frontmatter is not valid YAML: unexpected end of the stream",
        "",
      ].join("\n"),
    );
  });

  it("passes every skill_problem through with --json", () => {
    const { io, out } = captureIO();
    const printer = createWatchPrinter(io, { json: true });
    printer.onEvent(problem);
    printer.onEvent(problem);
    const lines = out().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual([problem, problem]);
  });
});
