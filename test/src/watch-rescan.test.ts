import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WatchEvent } from "@debatekit/cli";
import { describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  recordedAnswers,
  until,
  useWatchSandbox,
} from "./watch-helpers.js";

const sandbox = useWatchSandbox("watch-rescan-");

/** A whole second in the past, so a file's mtime can be put back exactly (utimes takes seconds). */
const past = Math.floor(Date.now() / 1000) - 3600;

/**
 * Rewrites a file and puts its mtime back, with an access time after it: chokidar then takes the
 * write for a mere access and reports nothing (it compares mtimes), as a lost event would.
 * Synchronous, so chokidar's own stat of the file runs after both.
 */
function writeUnseen(file: string, text: string): void {
  writeFileSync(file, text);
  utimesSync(file, past + 100_000, past);
}

describe("debate watch: the rescan", () => {
  it("runs a debate whose debate.md edit and inbox answer no file event reported", async () => {
    const dir = await createManualDebate(sandbox.work, "unseen", { exchanges: 1, paused: true });
    const debateMd = join(dir, "debate.md");
    utimesSync(debateMd, past, past);
    const answers = await recordedAnswers();
    await dropAnswer(dir, "e000-proposition", answers.get("e000-proposition")!, "rename");
    await dropAnswer(dir, "e000-opposition", answers.get("e000-opposition")!, "rename");
    const events = sandbox.events;
    const watcher = sandbox.watch({ rescanMs: 150 });
    await watcher.ready;
    const finished = () =>
      events.filter((e): e is Extract<WatchEvent, { type: "run_finished" }> => e.type === "run_finished");
    const reasons = () => events.flatMap((e) => (e.type === "run_started" ? e.reasons : []));
    await until("the first run to find it paused", () => finished().at(-1)?.status === "paused");

    // Unpaused without chokidar noticing: only the rescan can start the run that commits.
    writeUnseen(debateMd, readFileSync(debateMd, "utf8").replace("paused: true\n", ""));
    await until("the arguments committed", () => committedSteps(events, dir).length === 1);
    expect(reasons()).toContain("rescan:debate.md");
    expect(reasons()).not.toContain("debate.md");
    await until("the judge waiting", () => finished().at(-1)?.phase === "awaiting_judgment");

    // A blank answer (not there yet, for the manual seat), then its real text, unseen.
    const judgeFile = join(dir, "inbox", "e000-judge.json");
    writeFileSync(judgeFile, " \n");
    utimesSync(judgeFile, past, past);
    await until("the blank answer seen", () => reasons().includes("inbox/e000-judge.json"));
    await watcher.idle();
    const runsBefore = reasons().length;
    writeUnseen(judgeFile, answers.get("e000-judge")!);
    await until("the judgment committed", () => committedSteps(events, dir).length === 2);
    expect(reasons().slice(runsBefore)).toEqual(["rescan:inbox"]);
    await until("the debate done", () => finished().at(-1)?.status === "done");
    expect(events.some((e) => e.type === "invalid" || e.type === "run_error")).toBe(false);
  });
});
