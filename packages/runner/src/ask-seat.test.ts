import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { parseSideAnswer } from "@debatekit/core";
import { readDebateFolder, readJournal, writeJournalEntry } from "@debatekit/files";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askSeat, type SeatContext } from "./ask-seat.js";
import { createJournalStore } from "./journal-store.js";

const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), "runner-ask-")), "debate");
  await cp(example, dir, { recursive: true });
});
afterEach(async () => {
  await rm(join(dir, ".."), { recursive: true, force: true });
});

function contextFor(): SeatContext {
  return {
    dir,
    adapter: createReplayAdapter({ adapter: "replay", file: "replay.jsonl" }, { debateDir: dir, env: {} }),
    secrets: [],
    env: {},
    cwd: dir,
    now: () => new Date("2026-11-24T01:00:00Z"),
    emit: () => {},
    journal: createJournalStore(dir, { env: {} }),
    skillRoots: [],
  };
}

describe("askSeat: a journaled answer that cannot be read", () => {
  it("is journaled as invalid and the seat is asked again, so later runs are not blocked by it", async () => {
    const state = await readDebateFolder(dir);
    if (!state.ok) throw new Error(JSON.stringify(state.errors));
    // The recording answers attempt 2 with the good opening; attempt 1 was journaled before a crash.
    const lines = (await readFile(join(dir, "replay.jsonl"), "utf8")).trim().split("\n");
    const opening = JSON.parse(lines[0]!) as { text: string };
    await writeFile(
      join(dir, "replay.jsonl"),
      `${[...lines, JSON.stringify({ exchange: 0, role: "proposition", attempt: 2, text: opening.text })].join("\n")}\n`,
    );
    await writeJournalEntry(
      dir,
      {
        version: 1,
        debate_id: "ai-review-gate",
        exchange: 0,
        phase: "awaiting_arguments",
        role: "proposition",
        attempt: 1,
        adapter: "replay",
        prompt_sha256: "0".repeat(64),
        started_at: "2026-11-24T00:00:00.000Z",
        finished_at: "2026-11-24T00:00:01.000Z",
        result: { status: "ok", text: "POISON", durationMs: 1, transport: "file" },
      },
      { env: {} },
    );
    // A parser that throws on the journaled text (as core once did on JSON nested 100k levels deep).
    const parse = (text: string) => {
      if (text === "POISON") throw new RangeError("Maximum call stack size exceeded");
      return parseSideAnswer(state.value.state, "proposition", text);
    };

    const first = await askSeat(contextFor(), state.value.state, "proposition", parse);
    expect(first.ok).toBe(true);
    const journal = await readJournal(dir, { exchange: 0, phase: "awaiting_arguments", role: "proposition" });
    expect(journal.map((e) => [e.attempt, e.validation?.ok])).toEqual([
      [1, false],
      // An accepted answer is not rewritten: no `validation` means the answer the step uses.
      [2, undefined],
    ]);
    expect(journal[0]!.validation?.errors?.[0]).toMatch(
      /^ANSWER_UNREADABLE at `\(root\)`: the answer could not be read \(RangeError: Maximum call stack size exceeded\)/,
    );

    // A later run reuses the good answer without asking or tripping over the bad one.
    const later = await askSeat(contextFor(), state.value.state, "proposition", parse);
    expect(later.ok).toBe(true);
    expect((await readJournal(dir)).length).toBe(2);
  });
});

describe("askSeat: one journal write per accepted call", () => {
  it("journals the answer once, before parsing it; a later run reuses it without asking or writing", async () => {
    const state = await readDebateFolder(dir);
    if (!state.ok) throw new Error(JSON.stringify(state.errors));
    const parse = (text: string) => parseSideAnswer(state.value.state, "proposition", text);
    const context = contextFor();
    let asked = 0;
    const call = context.adapter.call.bind(context.adapter);
    const counted: typeof call = (request) => {
      asked++;
      return call(request);
    };
    context.adapter = { ...context.adapter, call: counted };
    const first = await askSeat(context, state.value.state, "proposition", parse);
    expect(first.ok).toBe(true);
    expect([asked, context.journal.written]).toEqual([1, 1]);
    const [entry] = await readJournal(dir);
    // Durable before it was parsed, and not rewritten after: no `validation` is the answer the step uses.
    expect(entry).toMatchObject({ attempt: 1, result: { status: "ok" } });
    expect(entry!.validation).toBeUndefined();
    // As after a crash before the step's commit: a new run parses the journaled answer again.
    const again = contextFor();
    again.adapter = { ...again.adapter, call: counted };
    const later = await askSeat(again, state.value.state, "proposition", parse);
    expect(later).toEqual(first);
    expect([asked, again.journal.written]).toEqual([1, 0]);
  });
});
