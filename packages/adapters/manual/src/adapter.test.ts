import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatRequest } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAdapter } from "./adapter.js";
import { parseStepStem, stepStem } from "./names.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "manual-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const request = (attempt = 1): SeatRequest => ({
  prompt: "Argue the motion.",
  timeoutMs: 1000,
  cwd: dir,
  step: { debateId: "d", exchange: 1, role: "opposition", attempt },
});

describe("manual adapter", () => {
  it("names steps e<exchange>-<role>, with -attempt<n> for retries", () => {
    expect(stepStem({ exchange: 1, role: "opposition", attempt: 1 })).toBe("e001-opposition");
    expect(stepStem({ exchange: 12, role: "judge", attempt: 2 })).toBe("e012-judge-attempt2");
  });

  it("reads a stem back into its step, and nothing else", () => {
    for (const step of [
      { exchange: 1, role: "opposition", attempt: 1 },
      { exchange: 12, role: "judge_2", attempt: 3 },
      { exchange: 1000, role: "proposer", attempt: 1 },
    ])
      expect(parseStepStem(stepStem(step))).toEqual(step);
    for (const name of ["e01-judge", "../e001-judge", "e001-", "e001-judge-attempt", "e001-Judge", "x"])
      expect(parseStepStem(name)).toBeUndefined();
  });

  it("writes the prompt and returns pending until the inbox file exists, then its text", async () => {
    const seat = createAdapter({ adapter: "manual" }, { debateDir: dir });
    const first = await seat.call(request());
    expect(first.status).toBe("pending");
    expect(first.error).toBe("waiting for inbox/e001-opposition.md (prompt in prompts/e001-opposition.md)");
    expect(await readFile(join(dir, "prompts/e001-opposition.md"), "utf8")).toBe(
      "<!-- Write your answer to inbox/e001-opposition.md. -->\n\nArgue the motion.",
    );
    await writeFile(join(dir, "inbox/e001-opposition.json"), '{"arguments": []}');
    expect(await seat.call(request())).toMatchObject({
      status: "ok",
      text: '{"arguments": []}',
      transport: "file",
    });
  });

  it("treats a blank inbox file as not there yet", async () => {
    const seat = createAdapter({ adapter: "manual" }, { debateDir: dir });
    await seat.call(request());
    await writeFile(join(dir, "inbox/e001-opposition.md"), "  \n");
    expect((await seat.call(request())).status).toBe("pending");
  });

  it("does not rewrite an unchanged prompt (a watcher must not see a change)", async () => {
    const seat = createAdapter({ adapter: "manual" }, { debateDir: dir });
    await seat.call(request());
    const before = (await stat(join(dir, "prompts/e001-opposition.md"))).mtimeMs;
    await new Promise((r) => setTimeout(r, 30));
    await seat.call(request());
    expect((await stat(join(dir, "prompts/e001-opposition.md"))).mtimeMs).toBe(before);
  });

  it("with timeout_ms, waits for the answer to arrive", async () => {
    const seat = createAdapter({ adapter: "manual", timeout_ms: 5000 }, { debateDir: dir });
    setTimeout(() => void writeFile(join(dir, "inbox/e001-opposition.md"), "late answer"), 400);
    const out = await seat.call(request());
    expect(out).toMatchObject({ status: "ok", text: "late answer" });
    expect(out.durationMs).toBeGreaterThanOrEqual(300);
  });

  it("with timeout_ms, a cancelled wait returns cancelled", async () => {
    const seat = createAdapter({ adapter: "manual", timeout_ms: 60_000 }, { debateDir: dir });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    expect((await seat.call({ ...request(), signal: controller.signal })).status).toBe("cancelled");
  });
});
