import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactSecrets, secretsFromEnv } from "@debatekit/adapter-kit";
import type { JournalEntry } from "@debatekit/schema";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJournalStore } from "./journal-store.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "runner-journal-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entry(text: string): JournalEntry {
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
    result: { status: "ok", text, durationMs: 4, exitCode: 0, transport: "file" },
    raw: { stdout: text, stderr: "" },
  };
}

const journalFiles = async () => readdir(join(dir, ".debate", "journal")).catch(() => []);

describe("createJournalStore", () => {
  it("refuses the value of a secret variable of the run's env, which process.env does not hold", async () => {
    const value = "Zq8vN3xK7mW2pL9tRUNENV";
    expect(Object.values(process.env)).not.toContain(value);
    const store = createJournalStore(dir, { env: { RUN_ONLY_SERVICE_TOKEN: value } });
    const error = await store.write(entry(`echoed ${value}`)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SECRET_IN_JOURNAL", field: "result.text" });
    expect((error as Error).message).toContain("$RUN_ONLY_SERVICE_TOKEN");
    expect((error as Error).message).not.toContain(value);
    expect(await journalFiles()).toEqual([]);
    // Without the run's env the same text is not a secret: the check really used the option.
    await createJournalStore(dir).write(entry(`echoed ${value}`));
    expect(await journalFiles()).toHaveLength(1);
  });
});

// Fake credentials with the shapes of real ones.
const B64 = "Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0eG3hJ5kL9nP";
const KEYS = [
  `sk-ant-api03-${B64}-Ab_9xAA`,
  `sk-proj-${B64}`,
  "ghp_a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8",
  "AKIAQ3EGRQZ7XKJ4TB2M",
  `AIzaSyD${B64.slice(0, 32)}`,
  "xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
  "Bearer Q2x8Vb7nM1kZ4pR9sT3w",
  "api_key=Q2x8Vb7nM1kZ4pR9sT3w",
  `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${B64}\n${B64}==\n-----END RSA PRIVATE KEY-----`,
];
const PROSE = [
  "risk-assessment-framework-guideline",
  '"-----BEGIN RSA PRIVATE KEY-----"',
  "100000",
  "sk-",
  "Bearer ",
  "api_key=",
  "\n",
  " ",
];

describe("redaction and the journal's check agree", () => {
  it("journals whatever redactSecrets leaves, for random text with embedded secrets", async () => {
    const envValue = fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/);
    const piece = (values: string[]) =>
      fc.oneof(
        fc.string({ maxLength: 10 }),
        fc.constantFrom(...KEYS, ...PROSE),
        values.length > 0 ? fc.constantFrom(...values) : fc.constant("x"),
      );
    const envAndText = fc
      .dictionary(fc.constantFrom("OPENAI_API_KEY", "MY_TOKEN", "DB_PASSWORD", "TOKEN_LIMIT"), envValue)
      .chain((env) =>
        fc.tuple(
          fc.constant(env),
          fc.array(piece(Object.values(env)), { maxLength: 14 }),
          fc.constantFrom("", " "),
        ),
      );
    await fc.assert(
      fc.asyncProperty(envAndText, async ([env, parts, separator]) => {
        const secrets = secretsFromEnv(env);
        const redacted = redactSecrets(parts.join(separator), secrets);
        // Rewrites the same step each time; a refusal (SECRET_IN_JOURNAL) fails the property.
        const path = await createJournalStore(dir, { env }).write(entry(redacted));
        const written = await readFile(path, "utf8");
        for (const secret of secrets) expect(written).not.toContain(secret);
        // Glued to a word a key is not a key shape (`xsk-…`, `…AIza…` inside an id); set apart, it goes.
        if (separator === " ") for (const key of KEYS.slice(0, 6)) expect(written).not.toContain(key);
      }),
      { numRuns: 200 },
    );
  });
});
