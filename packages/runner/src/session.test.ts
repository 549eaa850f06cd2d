import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  callWithSession,
  readSeatSession,
  resumeHeader,
  resumesSession,
  resumeText,
  writeSeatSession,
} from "./session.js";

const history = Array.from(
  { length: 40 },
  (_, i) => `- prop_${i}: an argument about caching, line ${i}`,
).join("\n");
const p1 = `Instructions.\n\n# History\n${history}\n\n# Request\nWrite exchange 3.`;
const p2 = `Instructions.\n\n# History\n${history}\n- opp_40: a new rebuttal\n\n# Request\nWrite exchange 4.`;

describe("resumesSession", () => {
  it("resumes kilo seats, whose CLI continues a session with --session", () => {
    expect(resumesSession({ adapter: "kilo", session: "resume" })).toBe(true);
    expect(resumesSession({ adapter: "kilo" })).toBe(false);
  });

  it("ignores `session: resume` on an adapter that cannot resume", () => {
    expect(resumesSession({ adapter: "qwen", session: "resume" })).toBe(false);
    expect(resumesSession({ adapter: "http", session: "resume" })).toBe(false);
  });
});

describe("resumeText", () => {
  it("sends the new prompt from the line where it leaves the previous one", () => {
    const text = resumeText(p1, p2)!;
    expect(text.startsWith(resumeHeader)).toBe(true);
    expect(text.slice(resumeHeader.length)).toBe("- opp_40: a new rebuttal\n\n# Request\nWrite exchange 4.");
    expect(text.length).toBeLessThan(p2.length / 5);
  });

  it("sends nothing through the session when the prompts share too little (a layout that moves)", () => {
    expect(resumeText(`Exchange 3 of 5\n${p1}`, `Exchange 4 of 5\n${p2}`)).toBeUndefined();
    expect(resumeText(p1, p1)).toBeUndefined();
  });
});

/** A CLI stand-in that keeps sessions like a real one: a resumed session sees its earlier prompts. */
function sessionKeeper(options: { forget?: boolean; newIdOnResume?: boolean } = {}) {
  const sessions = new Map<string, string[]>();
  const requests: SeatRequest[] = [];
  let next = 0;
  const adapter: Adapter = {
    name: "codex",
    detect: async () => ({ adapter: "codex", installed: true, usable: true }),
    call: async (request): Promise<SeatCall> => {
      requests.push(request);
      const base = { durationMs: 1, transport: "cli" as const };
      if (request.sessionId && options.forget)
        return { ...base, status: "exit", text: "", error: `no session ${request.sessionId}` };
      const id = request.sessionId && !options.newIdOnResume ? request.sessionId : `s${++next}`;
      const seen = [...(sessions.get(id) ?? []), request.prompt];
      sessions.set(id, seen);
      return { ...base, status: "ok", text: `seen ${seen.join("").length}`, sessionId: id };
    },
  };
  return { adapter, requests };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "runner-session-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("callWithSession", () => {
  const seat = { adapter: "codex" as const, model: "gpt-5", session: "resume" as const };

  it("resumes the stored session with only the new part", async () => {
    const cli = sessionKeeper();
    const [first] = await callWithSession(cli.adapter, { prompt: p1, timeoutMs: 1000 }, undefined);
    expect(first).toMatchObject({ session: "new", sent: p1 });
    await writeSeatSession(dir, "proposition", seat, first!.answer.sessionId!, p1, []);
    const stored = await readSeatSession(dir, "proposition", seat);
    const made = await callWithSession(cli.adapter, { prompt: p2, timeoutMs: 1000 }, stored);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ session: "resumed", answer: { status: "ok", sessionId: "s1" } });
    expect(cli.requests[1]!.sessionId).toBe("s1");
    expect(cli.requests[1]!.prompt).toBe(resumeText(p1, p2));
  });

  it("sends the whole prompt to a new session when the old one is gone (the CLI fails or starts another)", async () => {
    for (const options of [{ forget: true }, { newIdOnResume: true }]) {
      const cli = sessionKeeper(options);
      const stored = {
        version: 1 as const,
        role: "proposition",
        adapter: "codex",
        model: "gpt-5",
        session_id: "gone",
        prompt_sha256: "0".repeat(64),
        prompt: p1,
      };
      const made = await callWithSession(cli.adapter, { prompt: p2, timeoutMs: 1000 }, stored);
      expect(made.map((m) => [m.session, m.answer.status])).toEqual([
        ["resumed", "exit"],
        ["new", "ok"],
      ]);
      expect(made[0]!.answer.text).toBe("");
      expect(made[0]!.answer.error).toMatch(/session gone could not be resumed/);
      expect(cli.requests[1]).toMatchObject({ prompt: p2 });
      expect(cli.requests[1]!.sessionId).toBeUndefined();
    }
  });

  it("keeps no session across a change of adapter or model, nor from a broken file", async () => {
    await writeSeatSession(dir, "judge", seat, "s9", p1, []);
    expect(await readSeatSession(dir, "judge", seat)).toMatchObject({ session_id: "s9", prompt: p1 });
    expect(await readSeatSession(dir, "judge", { ...seat, model: "gpt-5-mini" })).toBeUndefined();
    expect(await readSeatSession(dir, "judge", { ...seat, adapter: "claude" })).toBeUndefined();
    expect(await readSeatSession(dir, "opposition", seat)).toBeUndefined();
    const file = join(dir, ".debate/sessions/judge.json");
    expect(JSON.parse(await readFile(file, "utf8")).session_id).toBe("s9");
  });

  it("stores the prompt redacted", async () => {
    const secret = "Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0e";
    await writeSeatSession(dir, "judge", seat, "s1", `${p1}\nkey ${secret}`, [secret]);
    expect(await readFile(join(dir, ".debate/sessions/judge.json"), "utf8")).not.toContain(secret);
  });
});
