import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { JournalEntry } from "@debatekit/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalFileName, readJournal, writeJournalEntry } from "./journal.js";
import { hashFolder, makeTempDir } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

function entry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    version: 1,
    debate_id: "sample",
    exchange: 0,
    phase: "awaiting_arguments",
    role: "proposition",
    attempt: 1,
    adapter: "replay",
    prompt_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    started_at: "2026-11-21T10:00:00.000Z",
    finished_at: "2026-11-21T10:00:00.004Z",
    result: { status: "ok", text: '{"arguments": []}', durationMs: 4, exitCode: 0, transport: "file" },
    ...overrides,
  };
}

describe("the journal", () => {
  it("names files so they sort by exchange, phase, role and attempt", () => {
    expect(journalFileName(entry())).toBe("x0000-1-arguments-proposition-a001.json");
    const names = [
      entry({ exchange: 10, phase: "awaiting_arguments", role: "opposition" }),
      entry({ exchange: 2, phase: "awaiting_judgment", role: "judge", attempt: 2 }),
      entry({ exchange: 2, phase: "awaiting_judgment", role: "judge", attempt: 1 }),
      entry({ exchange: 2, phase: "awaiting_arguments", role: "proposition" }),
    ].map(journalFileName);
    expect([...names].sort()).toEqual([names[3], names[2], names[1], names[0]]);
  });

  it("writes entries and reads them back, all or one step and role", async () => {
    const a = entry();
    const b = entry({ role: "opposition" });
    const c = entry({ phase: "awaiting_judgment", role: "judge" });
    const written = await writeJournalEntry(dir, c);
    await writeJournalEntry(dir, b);
    await writeJournalEntry(dir, a);
    expect(written).toBe(path.join(dir, ".debate", "journal", "x0000-2-judgment-judge-a001.json"));
    expect(await readJournal(dir)).toEqual([b, a, c]);
    expect(await readJournal(dir, { exchange: 0, phase: "awaiting_arguments" })).toEqual([b, a]);
    expect(await readJournal(dir, { exchange: 0, phase: "awaiting_arguments", role: "proposition" })).toEqual(
      [a],
    );
    expect(await readJournal(dir, { exchange: 1, phase: "awaiting_arguments" })).toEqual([]);
    // Rewriting the same step/role/attempt (e.g. to add the validation outcome) replaces the file.
    const validated = { ...a, validation: { ok: false, errors: ["`arguments` must have 3 items"] } };
    await writeJournalEntry(dir, validated);
    expect(await readJournal(dir, { exchange: 0, phase: "awaiting_arguments", role: "proposition" })).toEqual(
      [validated],
    );
    expect((await readdir(path.join(dir, ".debate", "journal"))).length).toBe(3);
  });

  it("reads an absent journal as empty", async () => {
    expect(await readJournal(dir)).toEqual([]);
  });

  it("refuses an invalid entry, naming the field, and writes nothing", async () => {
    await expect(writeJournalEntry(dir, entry({ attempt: 0 }))).rejects.toMatchObject({
      code: "JOURNAL_ENTRY_INVALID",
      field: "attempt",
    });
    expect(await hashFolder(dir)).toEqual({});
  });

  it.each([
    [
      "an API key in stdout",
      { raw: { stdout: "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", stderr: "" } },
      "raw.stdout",
    ],
    [
      "a bearer header in stderr",
      { raw: { stdout: "", stderr: "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123" } },
      "raw.stderr",
    ],
    [
      "a GitHub token in the text",
      {
        result: {
          status: "ok" as const,
          text: `ghp_${"a".repeat(36)}`,
          durationMs: 1,
          transport: "cli" as const,
        },
      },
      "result.text",
    ],
  ])("refuses %s without quoting it", async (_name, overrides, field) => {
    const error = await writeJournalEntry(dir, entry(overrides)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SECRET_IN_JOURNAL", field });
    expect((error as Error).message).not.toMatch(/sk-ant|abcdefghij|aaaaaaaa/);
    expect(await hashFolder(dir)).toEqual({});
  });

  it("refuses the value of a secret environment variable, naming the variable and never the value", async () => {
    const env = { MY_SERVICE_TOKEN: "correct-horse-battery-staple", PATH: "/usr/bin" };
    const leaking = entry({ raw: { stdout: "", stderr: "token=correct-horse-battery-staple" } });
    const error = await writeJournalEntry(dir, leaking, { env }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SECRET_IN_JOURNAL", field: "raw.stderr" });
    expect((error as Error).message).toContain("$MY_SERVICE_TOKEN");
    expect((error as Error).message).not.toContain("horse");
    await expect(
      writeJournalEntry(dir, leaking, { env: {}, secrets: ["battery-staple"] }),
    ).rejects.toMatchObject({
      code: "SECRET_IN_JOURNAL",
      message: expect.stringContaining("a value passed in `secrets`"),
    });
    expect(await hashFolder(dir)).toEqual({});
  });

  it("checks process.env by default", async () => {
    process.env.DEBATEKIT_FILES_TEST_TOKEN = "Zq8vN3xK7mW2pL9t";
    try {
      const leaking = entry({ raw: { stdout: "Zq8vN3xK7mW2pL9t", stderr: "" } });
      await expect(writeJournalEntry(dir, leaking)).rejects.toMatchObject({ code: "SECRET_IN_JOURNAL" });
    } finally {
      delete process.env.DEBATEKIT_FILES_TEST_TOKEN;
    }
  });

  it("journals debate text about keys, tokens and hex ids as it is", async () => {
    const text = [
      "Never paste an api_key, a token or anything starting with sk- into a prompt;",
      "the bearer token-based-authentication-flow is the weak point, (sk-learn-style-pipelines-for-everything),",
      "a committed -----BEGIN RSA PRIVATE KEY----- block, xoxb-tokens-look-like-this,",
      "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    ].join(" ");
    const prose = entry({
      result: { status: "ok", text, durationMs: 4, exitCode: 0, transport: "cli" },
      raw: { stdout: JSON.stringify({ result: text, usage: { output_tokens: 123456 } }), stderr: "" },
    });
    const written = await writeJournalEntry(dir, prose, { env: { AUTH_MODE: "interactive" } });
    expect(JSON.parse(await readFile(written, "utf8"))).toEqual(prose);
  });

  it("throws JOURNAL_ENTRY_INVALID naming a corrupt journal file", async () => {
    await writeJournalEntry(dir, entry());
    const file = path.join(dir, ".debate", "journal", "x0000-1-arguments-opposition-a001.json");
    await writeFile(file, '{"version": 2}');
    await expect(readJournal(dir)).rejects.toMatchObject({
      code: "JOURNAL_ENTRY_INVALID",
      file: ".debate/journal/x0000-1-arguments-opposition-a001.json",
    });
  });

  it("opens only the asked step's files: a corrupt entry of another step does not break a step read", async () => {
    await writeJournalEntry(dir, entry());
    await writeJournalEntry(dir, entry({ exchange: 1, phase: "awaiting_judgment", role: "judge" }));
    const other = path.join(dir, ".debate", "journal", "x0000-1-arguments-opposition-a001.json");
    await writeFile(other, "{ not json");
    await writeFile(
      path.join(dir, ".debate", "journal", ".x0001-2-judgment-judge-a002.json.4.abcdef012345.tmp"),
      "{",
    );
    expect(await readJournal(dir, { exchange: 0, phase: "awaiting_arguments", role: "proposition" })).toEqual(
      [entry()],
    );
    expect(await readJournal(dir, { exchange: 1, phase: "awaiting_judgment" })).toEqual([
      entry({ exchange: 1, phase: "awaiting_judgment", role: "judge" }),
    ]);
    expect(await readJournal(dir, { exchange: 0, phase: "not_a_phase" })).toEqual([]);
    await expect(readJournal(dir, { exchange: 0, phase: "awaiting_arguments" })).rejects.toMatchObject({
      code: "JOURNAL_ENTRY_INVALID",
      file: ".debate/journal/x0000-1-arguments-opposition-a001.json",
    });
  });
});
