import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatRequest } from "@debatekit/adapter-kit";
import { validateAdapterResult } from "@debatekit/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAdapter } from "./adapter.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "replay-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const request = (
  exchange: number,
  role: "proposition" | "opposition" | "judge",
  attempt = 1,
): SeatRequest => ({
  prompt: "ignored",
  timeoutMs: 1000,
  cwd: dir,
  step: { debateId: "d", exchange, role, attempt },
});
const lines = (...entries: object[]) => `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`;

describe("replay adapter", () => {
  it("answers with the recorded text for the step, attempt 1 by default", async () => {
    await writeFile(
      join(dir, "replay.jsonl"),
      lines(
        { exchange: 0, role: "proposition", text: "first" },
        { exchange: 0, role: "proposition", attempt: 2, text: "second" },
        { exchange: 0, role: "judge", text: "verdict", model: "recorded-model" },
      ),
    );
    const seat = createAdapter({ adapter: "replay" }, { debateDir: dir });
    const a = await seat.call(request(0, "proposition"));
    expect(a).toMatchObject({ status: "ok", text: "first", transport: "file" });
    expect(validateAdapterResult(a).ok).toBe(true);
    expect((await seat.call(request(0, "proposition", 2))).text).toBe("second");
    expect(await seat.call(request(0, "judge"))).toMatchObject({ text: "verdict", model: "recorded-model" });
  });

  it("says which file and which step have no recorded answer", async () => {
    await writeFile(join(dir, "answers.jsonl"), lines({ exchange: 0, role: "judge", text: "x" }));
    const seat = createAdapter({ adapter: "replay", file: "answers.jsonl" }, { debateDir: dir });
    const out = await seat.call(request(3, "opposition"));
    expect(out.status).toBe("unavailable");
    expect(out.error).toBe("answers.jsonl has no answer for exchange 3, role opposition, attempt 1");
  });

  it("rejects a line that is not a ReplayEntry, naming the file, line and field", async () => {
    await writeFile(
      join(dir, "replay.jsonl"),
      lines({ exchange: 0, role: "judge", text: "x" }, { exchange: 1, role: "Jury", text: "x" }),
    );
    const out = await createAdapter({ adapter: "replay" }, { debateDir: dir }).call(request(0, "judge"));
    expect(out.status).toBe("unavailable");
    expect(out.error).toMatch(/^replay\.jsonl:2 `role` does not have the expected form/);
  });

  it("rejects a recording that answers the same step twice", async () => {
    await writeFile(
      join(dir, "replay.jsonl"),
      lines({ exchange: 0, role: "judge", text: "x" }, { exchange: 0, role: "judge", attempt: 1, text: "y" }),
    );
    const out = await createAdapter({ adapter: "replay" }, { debateDir: dir }).call(request(0, "judge"));
    expect(out.error).toBe("replay.jsonl:2 repeats exchange 0, role judge, attempt 1");
  });

  it("reports a missing file as unavailable, and detect() says so", async () => {
    const seat = createAdapter({ adapter: "replay" }, { debateDir: dir });
    expect((await seat.call(request(0, "judge"))).error).toBe("replay file replay.jsonl does not exist");
    expect(await seat.detect()).toMatchObject({ usable: false, installed: true });
  });

  it("waits delay_ms, and a cancelled wait returns cancelled", async () => {
    await writeFile(
      join(dir, "replay.jsonl"),
      lines({ exchange: 0, role: "judge", delay_ms: 120_000, text: "x" }),
    );
    const seat = createAdapter({ adapter: "replay" }, { debateDir: dir });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const out = await seat.call({ ...request(0, "judge"), signal: controller.signal });
    expect(out.status).toBe("cancelled");
    // Far below the two-minute delay: the wait ended because of the signal.
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("logs every request when DEBATEKIT_REPLAY_LOG is set", async () => {
    await writeFile(join(dir, "replay.jsonl"), lines({ exchange: 0, role: "judge", text: "x" }));
    const log = join(dir, "calls.log");
    const seat = createAdapter({ adapter: "replay" }, { debateDir: dir, env: { DEBATEKIT_REPLAY_LOG: log } });
    await seat.call(request(0, "judge"));
    await seat.call(request(0, "judge", 2));
    const logged = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logged.map((l) => l.attempt)).toEqual([1, 2]);
    expect(logged[0]).toMatchObject({ debateId: "d", exchange: 0, role: "judge" });
  });
});
