import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIO } from "../output.js";
import type { WatchEvent } from "./events.js";
import { createWatchPrinter, formatLiveStatus } from "./format.js";

function captureIO(tty: boolean): { io: CliIO; out: () => string; err: () => string } {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty });
  const stderr = Object.assign(new PassThrough(), { isTTY: tty });
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  return { io: { stdout, stderr, env: { NO_COLOR: "1" }, cwd: "/w" }, out: () => out, err: () => err };
}

const at = "2026-11-22T10:11:12.000Z";
const finished = (exchange: number): WatchEvent => ({
  at,
  type: "run_finished",
  dir: "/w/debates/d1",
  unit: "exchange",
  status: "waiting",
  exchange,
  phase: "awaiting_judgment",
  committed: 0,
  pending: [{ role: "judge", message: "waiting for inbox/e000-judge.md (prompt in prompts/e000-judge.md)" }],
});
const committed: WatchEvent = {
  at,
  type: "step_committed",
  dir: "/w/debates/d1",
  unit: "exchange",
  from: { exchange: 0, phase: "awaiting_arguments" },
  exchange: 0,
  phase: "awaiting_judgment",
};

describe("createWatchPrinter", () => {
  it("prints one line per phase change and skips a run that ends where the last one did", async () => {
    const { io, out } = captureIO(false);
    const printer = createWatchPrinter(io, {});
    const started: WatchEvent = { at, type: "run_started", dir: "/w/debates/d1", reasons: ["debate.md"] };
    for (const event of [committed, started, finished(0), started, finished(0), started, finished(0)]) {
      printer.onEvent(event);
    }
    printer.stop();
    expect(out()).toBe(
      [
        "10:11:12 debates/d1: exchange 0 arguments committed -> exchange 0 awaiting_judgment",
        "10:11:12 debates/d1: waiting: waiting for inbox/e000-judge.md (prompt in prompts/e000-judge.md) [exchange 0 awaiting_judgment]",
        "",
      ].join("\n"),
    );
  });

  it("counts in the debate's own unit: a crossfire debate's lines say round", () => {
    const { io, out } = captureIO(false);
    const printer = createWatchPrinter(io, {});
    const dir = "/w/debates/grpc";
    printer.onEvent({
      at,
      type: "step_committed",
      dir,
      unit: "round",
      from: { exchange: 1, phase: "awaiting_proposer" },
      exchange: 1,
      phase: "awaiting_challenger",
    });
    printer.onEvent({
      at,
      type: "answer_rejected",
      dir,
      unit: "round",
      exchange: 1,
      role: "challenger",
      attempt: 2,
      errors: ["CROSSFIRE_QUESTION_MISSING"],
    });
    printer.onEvent({
      at,
      type: "run_finished",
      dir,
      unit: "round",
      status: "done",
      exchange: 3,
      phase: "complete",
      committed: 8,
      reason: "verdict: the challenger wins",
    });
    expect(out().trim().split("\n")).toEqual([
      "10:11:12 debates/grpc: round 1 proposer committed -> round 1 awaiting_challenger",
      "10:11:12 debates/grpc: round 1 · the challenger's answer was rejected, asking again (attempt 2): CROSSFIRE_QUESTION_MISSING",
      "10:11:12 debates/grpc: done: verdict: the challenger wins [round 3 complete]",
    ]);
  });

  it("prints a file that stays broken once, and again after it read in between", () => {
    const { io, out } = captureIO(false);
    const printer = createWatchPrinter(io, {});
    const invalid: WatchEvent = {
      at,
      type: "invalid",
      dir: "/w/d",
      code: "DEBATE_FIELD_INVALID",
      file: "debate.md",
      field: "exchanges",
      message: "debate.md: `exchanges` must be integer",
    };
    for (const event of [invalid, invalid, { at, type: "recovered", dir: "/w/d" } as WatchEvent, invalid]) {
      printer.onEvent(event);
    }
    expect(out().trim().split("\n")).toEqual([
      "10:11:12 d: debate.md field exchanges is invalid (DEBATE_FIELD_INVALID): debate.md: `exchanges` must be integer; waiting for a fix",
      "10:11:12 d: readable again, resuming",
      "10:11:12 d: debate.md field exchanges is invalid (DEBATE_FIELD_INVALID): debate.md: `exchanges` must be integer; waiting for a fix",
    ]);
  });

  it("with json, writes each event as one line of JSON", () => {
    const { io, out } = captureIO(false);
    const printer = createWatchPrinter(io, { json: true });
    printer.onEvent(committed);
    printer.onEvent(finished(0));
    const lines = out().trim().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual([committed, finished(0)]);
  });

  it("on a TTY keeps a live status line on stderr", () => {
    const { io, err } = captureIO(true);
    const printer = createWatchPrinter(io, {
      debates: () => [
        { dir: "/w/a", running: true },
        { dir: "/w/b", running: false, last: { status: "waiting", exchange: 0, phase: "awaiting_judgment" } },
      ],
    });
    printer.onEvent(committed);
    printer.stop();
    expect(err()).toContain("2 watched · 1 running · 1 waiting · 0 done");
    expect(err().endsWith("\r\u001b[K")).toBe(true);
  });
});

describe("formatLiveStatus", () => {
  it("counts invalid debates only when there are some", () => {
    expect(formatLiveStatus([])).toBe("0 watched · 0 running · 0 waiting · 0 done");
    expect(
      formatLiveStatus([
        { dir: "/a", running: false, invalid: { code: "X", file: "debate.md", message: "m" } },
      ]),
    ).toBe("1 watched · 0 running · 0 waiting · 0 done · 1 invalid");
  });

  it("says failed and paused debates apart from waiting ones", () => {
    const last = (status: "failed" | "paused" | "waiting" | "cancelled") => ({
      status,
      exchange: 1,
      phase: "awaiting_arguments",
    });
    expect(
      formatLiveStatus([
        { dir: "/a", running: false, last: last("failed") },
        { dir: "/b", running: false, last: last("cancelled") },
        { dir: "/c", running: false, last: last("paused") },
        { dir: "/d", running: false, last: last("waiting") },
      ]),
    ).toBe("4 watched · 0 running · 1 waiting · 0 done · 1 paused · 2 failed");
  });
});
