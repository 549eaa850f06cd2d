import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactSecrets, secretsFromEnv } from "@debatekit/adapter-kit";
import { readJournal, readJournalPrompts } from "@debatekit/files";
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

/** A seat's call of `exchange` that was sent `prompt` (kept as it is: it holds no secret). */
function sent(exchange: number, prompt: string, role = "proposition"): JournalEntry {
  return {
    ...entry("{}"),
    exchange,
    role,
    prompt,
    prompt_sha256: createHash("sha256").update(prompt).digest("hex"),
  };
}

/** A debate's prompts of one seat: the same opening, a history that grows a line block per exchange, a new ending. */
function growing(count: number): string[] {
  const opening = Array.from({ length: 40 }, (_, i) => `Instruction line ${i} of the seat's role.`).join(
    "\n",
  );
  const history = (n: number) =>
    Array.from(
      { length: n },
      (_, x) => `## Exchange ${x}\nprop_${x}: a claim of ordinary length for ${x}.`,
    ).join("\n");
  return Array.from(
    { length: count },
    (_, n) => `${opening}\n${history(n)}\n## Standing after ${n}\nYour turn: exchange ${n}.\n`,
  );
}

describe("prompts kept against the seat's last whole one", () => {
  it("keeps each prompt that repeats the last whole one as its end only, and puts every one back together", async () => {
    const prompts = growing(40);
    const store = createJournalStore(dir);
    for (const [x, prompt] of prompts.entries()) await store.write(sent(x, prompt));
    const entries = await readJournal(dir);
    expect(entries).toHaveLength(40);
    // One whole prompt, then 16 kept against it, then a whole one again.
    const whole = entries.flatMap((e, i) => (e.prompt_base ? [] : [i]));
    expect(whole).toEqual([0, 17, 34]);
    expect(entries[5]!.prompt_base).toEqual({
      file: "x0000-1-arguments-proposition-a001.json",
      chars: expect.any(Number),
    });
    // Each end starts a line of the prompt.
    for (const e of entries.filter((e) => e.prompt_base))
      expect(prompts[e.exchange]![e.prompt_base!.chars - 1]).toBe("\n");
    expect(await readJournalPrompts(dir, entries)).toEqual(prompts);
    // What the store keeps in memory is what it wrote.
    expect((await store.all()).map((e) => e.prompt)).toEqual(entries.map((e) => e.prompt));
    const kept = entries.reduce((a, e) => a + e.prompt!.length, 0);
    const asWhole = prompts.reduce((a, p) => a + p.length, 0);
    expect(kept).toBeLessThan(asWhole / 3);
  });

  it("keeps whole a prompt that shares less than half with the base, and each seat has its own base", async () => {
    const store = createJournalStore(dir);
    const [first, second] = growing(2);
    await store.write(sent(0, first!));
    await store.write(sent(0, `${first!}more\n`, "opposition"));
    await store.write(sent(1, `Another opening\n${second!.slice(first!.length / 2)}`));
    await store.write(sent(1, `${first!}more\nand more\n`, "opposition"));
    const entries = await readJournal(dir);
    expect(entries.map((e) => [e.exchange, e.role, e.prompt_base?.file ?? "whole"])).toEqual([
      [0, "opposition", "whole"],
      [0, "proposition", "whole"],
      [1, "opposition", "x0000-1-arguments-opposition-a001.json"],
      [1, "proposition", "whole"],
    ]);
    expect(entries[2]!.prompt).toBe("and more\n");
  });

  it("rewriting an entry (a rejection written back) keeps it readable, whole or not", async () => {
    const store = createJournalStore(dir);
    const [a, b] = growing(2);
    const first = sent(0, a!);
    const second = sent(1, b!);
    await store.write(first);
    await store.write(second);
    await store.write({ ...first, validation: { ok: false, errors: ["bad"] } });
    await store.write({ ...second, validation: { ok: false, errors: ["bad"] } });
    const entries = await readJournal(dir);
    expect(entries.map((e) => e.prompt_base?.file ?? "whole")).toEqual([
      "whole",
      "x0000-1-arguments-proposition-a001.json",
    ]);
    expect(await readJournalPrompts(dir, entries)).toEqual([a, b]);
  });

  it("says where the start of a prompt was when its base is gone", async () => {
    const store = createJournalStore(dir);
    const [a, b] = growing(2);
    await store.write(sent(0, a!));
    await store.write(sent(1, b!));
    await unlink(join(dir, ".debate/journal/x0000-1-arguments-proposition-a001.json"));
    const [prompt] = await readJournalPrompts(dir, await readJournal(dir));
    expect(prompt).toMatch(
      /^\[the first \d+ characters of this prompt are kept in \.debate\/journal\/x0000-1-arguments-proposition-a001\.json, which cannot be used: it is not there\]\n## Exchange 0\n/,
    );
  });

  it("journals any run of growing redacted prompts and reads each back exactly (property)", async () => {
    const env = { SERVICE_TOKEN: "Zq8vN3xK7mW2pL9tRqQ" };
    const secrets = secretsFromEnv(env);
    const line = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(...KEYS, ...PROSE, env.SERVICE_TOKEN, "password:", "Bearer", "..."),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(line, { maxLength: 6 }), { minLength: 2, maxLength: 8 }),
        fc.array(line, { maxLength: 3 }),
        async (blocks, ending) => {
          const here = await mkdtemp(join(dir, "p-"));
          const store = createJournalStore(here, { env });
          const prompts: string[] = [];
          for (let n = 1; n <= blocks.length; n++) {
            const text = [...blocks.slice(0, n).flat(), ...ending, `exchange ${n}`].join("\n");
            const prompt = redactSecrets(text, secrets);
            prompts.push(prompt);
            await store.write(sent(n, prompt));
          }
          const entries = await readJournal(here);
          expect(await readJournalPrompts(here, entries)).toEqual(prompts);
          for (const e of entries) expect(JSON.stringify(e)).not.toContain(env.SERVICE_TOKEN);
        },
      ),
      { numRuns: 100 },
    );
  });
});
