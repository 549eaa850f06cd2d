import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { type RunEvent, type RunSummary, runDebate } from "@debatekit/runner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allowFolderPrograms, repoRoot } from "./workspace.js";

// Hostile inputs that need a run: replay `file:` paths, manual seats' prompts/
// and inbox/ (symlinks out, FIFOs, directories, devices, huge or binary answers), ambiguous and
// pathological answers, planted secrets. The runner, files, core and the replay/manual/claude adapters
// are real; the folders are real temp folders with real FIFOs and symlinks. Each case expects the run
// to fail with a precise error (code, file, field) and every file of the folder (the journal aside)
// and outside it to be byte-identical after the run.

const example = join(repoRoot, "examples/ai-review-gate");
// A fake key and an env secret with the shapes of real ones.
const SECRET = "Qm7Zt2Xv9Lp4Wr8Ny3Kb6Hd1Jf5Gs0Ac";

type Setup = (dir: string, outside: string) => Promise<void>;
interface RunCase {
  name: string;
  /** Seats of the debate: the example's replay seats, or manual seats (run once first, to write prompts). */
  seats?: "replay" | "manual";
  setup: Setup;
  code: string;
  file: string | RegExp;
  field?: string;
  says?: string | RegExp;
  /** Run environment besides PATH and HOME (e.g. a secret-named variable). */
  env?: Record<string, string>;
  /** No 8-character piece of this may appear in the summary, the events, the journal or any file. */
  secret?: string;
}

const path = (dir: string, name: string) => join(dir, name);
async function editFile(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`case setup: ${String(from)} not found in ${file}`);
  await writeFile(file, next);
}
/** Points the proposition seat at another replay file. */
const propositionFile = (file: string) => (dir: string) =>
  editFile(
    path(dir, "debate.md"),
    "proposition: { adapter: replay, file: replay.jsonl }",
    `proposition: { adapter: replay, file: ${JSON.stringify(file)} }`,
  );
const both =
  (...steps: Setup[]): Setup =>
  async (dir, outside) => {
    for (const step of steps) await step(dir, outside);
  };
const mkfifo = (file: string): void => {
  execFileSync("mkfifo", [file]);
};
/** Replaces the recorded answers of one step (every attempt) with `text`. */
const answer = (exchange: number, role: string, text: string) => async (dir: string) => {
  const lines = (await readFile(path(dir, "replay.jsonl"), "utf8")).trim().split("\n");
  const kept = lines.filter((l) => {
    const e = JSON.parse(l) as { exchange: number; role: string };
    return !(e.exchange === exchange && e.role === role);
  });
  const mine = [1, 2, 3].map((attempt) => JSON.stringify({ exchange, role, attempt, text }));
  await writeFile(path(dir, "replay.jsonl"), `${[...kept, ...mine].join("\n")}\n`);
};
const INBOX = "inbox/e000-proposition.md";
const PROMPT = "prompts/e000-proposition.md";
const replaceWith =
  (name: string, make: (at: string, outside: string) => Promise<unknown>) =>
  async (dir: string, outside: string) => {
    await rm(path(dir, name), { recursive: true, force: true });
    await make(path(dir, name), outside);
  };
const deep = `{"arguments": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
/** A stand-in for the claude CLI: prints a result event that reports `message` as an API error. */
const fakeClaude = (message: string) => {
  const event = {
    type: "result",
    subtype: "success",
    is_error: true,
    api_error_status: 401,
    result: message,
  };
  return `process.stdout.write(${JSON.stringify(`${JSON.stringify(event)}\n`)}); process.exit(1);\n`;
};

const cases: RunCase[] = [
  // A replay seat's `file:` must stay inside the debate folder
  {
    name: "replay file: climbs out with ..",
    setup: propositionFile("../outside/replay.jsonl"),
    code: "PATH_ESCAPE",
    file: "debate.md",
    field: "seats.proposition.file",
    says: "contains a `..` segment",
  },
  {
    name: "replay file: is an absolute path",
    setup: propositionFile("/etc/passwd"),
    code: "PATH_ESCAPE",
    file: "debate.md",
    field: "seats.proposition.file",
    says: "it is absolute",
  },
  {
    name: "replay file: uses .. even though it lands back inside",
    setup: propositionFile("arguments/../replay.jsonl"),
    code: "PATH_ESCAPE",
    file: "debate.md",
    field: "seats.proposition.file",
  },
  {
    name: "replay file: is a symlink to a copy outside",
    setup: both(propositionFile("linked.jsonl"), async (dir, outside) => {
      await cp(path(dir, "replay.jsonl"), path(outside, "replay.jsonl"));
      await symlink(path(outside, "replay.jsonl"), path(dir, "linked.jsonl"));
    }),
    code: "PATH_ESCAPE",
    file: "debate.md",
    field: "seats.proposition.file",
    says: "leads outside the folder",
  },
  {
    name: "replay file: is a symlink to /dev/zero",
    setup: both(propositionFile("zero.jsonl"), async (dir) => symlink("/dev/zero", path(dir, "zero.jsonl"))),
    code: "PATH_ESCAPE",
    file: "debate.md",
    field: "seats.proposition.file",
  },
  {
    name: "replay file: is a FIFO",
    setup: both(propositionFile("pipe.jsonl"), async (dir) => mkfifo(path(dir, "pipe.jsonl"))),
    code: "FILE_NOT_REGULAR",
    file: "pipe.jsonl",
    field: "(file)",
    says: "named pipe (FIFO)",
  },
  {
    name: "replay file: is a directory",
    setup: both(propositionFile("answers"), async (dir) => mkdir(path(dir, "answers"))),
    code: "FILE_NOT_REGULAR",
    file: "answers",
    field: "(file)",
    says: "a directory",
  },

  // Ambiguous and pathological answers
  {
    name: "an answer with two different JSON objects",
    setup: answer(
      0,
      "proposition",
      '```json\n{"arguments": []}\n```\nor rather\n```json\n{"arguments": [1]}\n```',
    ),
    code: "ANSWER_INVALID",
    file: /^\.debate\/journal\/x0000-1-arguments-proposition-a003\.json$/,
    field: "",
    says: "MODEL_OUTPUT_AMBIGUOUS",
  },
  {
    name: "an answer nested 100k levels deep",
    setup: answer(0, "proposition", deep),
    code: "ANSWER_INVALID",
    file: /^\.debate\/journal\/x0000-1-arguments-proposition-a003\.json$/,
    field: "",
    says: "MODEL_OUTPUT_TOO_DEEP",
  },
  {
    name: "a judgment nested 100k levels deep",
    // First a run that commits the openings and stops at the judge (no recorded judgment yet).
    setup: both(answer(0, "judge", ""), async (dir) => {
      await runDebate(dir, { env: {}, cwd: join(dir, ".."), skillRoots: [] });
      await answer(0, "judge", `{"scores": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`)(dir);
    }),
    code: "ANSWER_INVALID",
    file: /^\.debate\/journal\/x0000-2-judgment-judge-a00\d\.json$/,
    field: "",
    says: "MODEL_OUTPUT_TOO_DEEP",
  },

  {
    name: "a replay line nested 100k levels deep (the recording's check overflowed the stack)",
    setup: async (dir) => {
      const line = JSON.stringify({ exchange: 9, role: "judge", text: "x" }).replace('"x"', deep);
      await writeFile(
        path(dir, "replay.jsonl"),
        `${await readFile(path(dir, "replay.jsonl"), "utf8")}${line}\n`,
      );
    },
    code: "SEAT_UNAVAILABLE",
    file: /^\.debate\/journal\/x0000-1-arguments-(proposition|opposition)-a001\.json$/,
    says: /replay\.jsonl:17 nests 100002 levels deep, expected at most 64/,
  },

  {
    name: "a journal entry is a FIFO",
    setup: async (dir) => {
      await mkdir(path(dir, ".debate/journal"), { recursive: true });
      mkfifo(path(dir, ".debate/journal/x0000-1-arguments-proposition-a001.json"));
    },
    code: "FILE_NOT_REGULAR",
    file: ".debate/journal/x0000-1-arguments-proposition-a001.json",
    says: "named pipe (FIFO)",
  },
  {
    name: "a journal entry nested 100k levels deep",
    setup: async (dir) => {
      await mkdir(path(dir, ".debate/journal"), { recursive: true });
      await writeFile(path(dir, ".debate/journal/x0000-1-arguments-proposition-a001.json"), deep);
    },
    code: "JOURNAL_ENTRY_INVALID",
    file: ".debate/journal/x0000-1-arguments-proposition-a001.json",
    says: "nests 100001 levels deep, expected at most 64",
  },

  // Planted secrets
  {
    name: "an env secret in an invalid answer, where the error would quote it",
    setup: answer(0, "proposition", `{"arguments": "${"y".repeat(150)} ${SECRET} and more"}`),
    env: { OPENAI_API_KEY: SECRET },
    code: "ANSWER_INVALID",
    file: /^\.debate\/journal\/x0000-1-arguments-proposition-a003\.json$/,
    field: "arguments",
    secret: SECRET,
  },
  {
    name: "an env secret in a CLI's error message, right where its parser cuts it",
    setup: async (dir) => {
      await writeFile(path(dir, "fake-claude.mjs"), fakeClaude(`${"x".repeat(120)} ${SECRET} was refused`));
      await editFile(
        path(dir, "debate.md"),
        "proposition: { adapter: replay, file: replay.jsonl }",
        `proposition: { adapter: claude, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(path(dir, "fake-claude.mjs"))}], timeout_ms: 20000 }`,
      );
    },
    env: { ANTHROPIC_API_KEY: SECRET },
    code: "SEAT_EXIT",
    file: /^\.debate\/journal\/x0000-1-arguments-proposition-a001\.json$/,
    says: "claude exited with 1: claude reported API error 401: xxx",
    secret: SECRET,
  },

  // Manual seats: prompts/ and inbox/ never lead out, only regular files are read
  {
    name: "manual: prompts/ is a symlink to a folder outside",
    seats: "manual",
    setup: replaceWith("prompts", (at, outside) => symlink(outside, at)),
    code: "PATH_ESCAPE",
    file: "prompts",
    field: "(file)",
    says: "leads outside the folder",
  },
  {
    name: "manual: inbox/ is a symlink to a folder outside",
    seats: "manual",
    setup: replaceWith("inbox", async (at, outside) => {
      await writeFile(path(outside, "e000-proposition.md"), "{}");
      await symlink(outside, at);
    }),
    code: "PATH_ESCAPE",
    file: "inbox",
    field: "(file)",
  },
  {
    name: "manual: prompts/ is a file",
    seats: "manual",
    setup: replaceWith("prompts", (at) => writeFile(at, "not a folder\n")),
    code: "FILE_NOT_FOLDER",
    file: "prompts/",
    field: "(file)",
  },
  {
    name: "manual: the prompt file is a symlink to a file outside",
    seats: "manual",
    setup: replaceWith(PROMPT, async (at, outside) => {
      await writeFile(path(outside, "prompt.md"), "outside\n");
      await symlink(path(outside, "prompt.md"), at);
    }),
    code: "PATH_ESCAPE",
    file: PROMPT,
    field: "(file)",
  },
  {
    name: "manual: the prompt file is a FIFO",
    seats: "manual",
    setup: replaceWith(PROMPT, async (at) => mkfifo(at)),
    code: "FILE_NOT_REGULAR",
    file: PROMPT,
    field: "(file)",
  },
  {
    name: "manual: the answer is a FIFO (a plain read hangs)",
    seats: "manual",
    setup: async (dir) => mkfifo(path(dir, INBOX)),
    code: "FILE_NOT_REGULAR",
    file: INBOX,
    field: "(file)",
    says: "named pipe (FIFO)",
  },
  {
    name: "manual: the .json answer is a FIFO",
    seats: "manual",
    setup: async (dir) => mkfifo(path(dir, "inbox/e000-proposition.json")),
    code: "FILE_NOT_REGULAR",
    file: "inbox/e000-proposition.json",
    field: "(file)",
  },
  {
    name: "manual: the answer is a directory (EISDIR)",
    seats: "manual",
    setup: async (dir) => mkdir(path(dir, INBOX)),
    code: "FILE_NOT_REGULAR",
    file: INBOX,
    field: "(file)",
    says: "a directory",
  },
  {
    name: "manual: the answer is a symlink to /dev/zero (Invalid string length)",
    seats: "manual",
    setup: async (dir) => symlink("/dev/zero", path(dir, INBOX)),
    code: "PATH_ESCAPE",
    file: INBOX,
    field: "(file)",
  },
  {
    name: "manual: the answer is a symlink to a file outside",
    seats: "manual",
    setup: async (dir, outside) => {
      await writeFile(path(outside, "answer.md"), "{}");
      await symlink(path(outside, "answer.md"), path(dir, INBOX));
    },
    code: "PATH_ESCAPE",
    file: INBOX,
    field: "(file)",
  },
  {
    name: "manual: the answer is larger than the cap",
    seats: "manual",
    setup: async (dir) => writeFile(path(dir, INBOX), `{"a": "${"z".repeat(2 * 1024 * 1024)}"}`),
    code: "FILE_TOO_LARGE",
    file: INBOX,
    field: "(file)",
  },
  {
    name: "manual: the answer is binary",
    seats: "manual",
    setup: async (dir) => writeFile(path(dir, INBOX), Buffer.from([0x7b, 0, 0x7d])),
    code: "FILE_BINARY",
    file: INBOX,
    field: "(file)",
  },
];

/** sha256 of every file under `dir` except the journal and lock, symlinks by target, FIFOs by kind. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const rel = relative(dir, full);
    // The journal is the engine's record of calls (aside, as the issue says); .debate/ holds it, the
    // lock, and the usage ledger derived from the journal.
    if (
      rel === ".debate" ||
      rel.startsWith(".debate/journal") ||
      rel.startsWith(".debate/lock") ||
      rel === ".debate/ledger.json"
    )
      continue;
    if (entry.isSymbolicLink()) out[rel] = `-> ${await readlink(full)}`;
    else if (entry.isFile())
      out[rel] = createHash("sha256")
        .update(await readFile(full))
        .digest("hex");
    else out[rel] = entry.isDirectory() ? "dir" : "special";
  }
  return out;
}

/** Every text the engine wrote: the files of the folder (the planted inputs and FIFOs skipped) and the journal. */
async function everything(dir: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === "replay.jsonl" || entry.name.endsWith(".mjs")) continue;
    texts.push(await readFile(join(entry.parentPath, entry.name), "utf8"));
  }
  return texts.join("\n");
}

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "debatekit-hostile-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function prepare(bad: RunCase): Promise<{ dir: string; outside: string }> {
  const dir = join(base, "debate");
  const outside = join(base, "outside");
  await cp(example, dir, { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, "keep.txt"), "outside the debate\n");
  if (bad.seats === "manual") {
    await editFile(
      join(dir, "debate.md"),
      /seats:\n(?: {2}.*\n){3}/,
      "seats:\n  proposition: { adapter: manual }\n  opposition: { adapter: manual }\n  judge: { adapter: manual }\n",
    );
    // The first run writes the prompts and waits for the answers.
    expect(await runDebate(dir, { env: {}, cwd: base, skillRoots: [] })).toMatchObject({ status: "waiting" });
  }
  return { dir, outside };
}

describe("hostile inputs to a run: precise errors, nothing changed", () => {
  it("has at least 20 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s",
    async (_name, bad) => {
      const { dir, outside } = await prepare(bad);
      await bad.setup(dir, outside);
      const env = { PATH: process.env.PATH ?? "", HOME: base, ...bad.env };
      // The user allowed what the folder's seats run (a fake CLI of the case's own), as `debate allow` does.
      await allowFolderPrograms(dir, env);
      const before = { inside: await fingerprint(dir), outside: await fingerprint(outside) };
      const events: RunEvent[] = [];
      const summary: RunSummary = await runDebate(dir, {
        env,
        cwd: base,
        skillRoots: [],
        onEvent: (e) => events.push(e),
      });
      expect({ inside: await fingerprint(dir), outside: await fingerprint(outside) }).toEqual(before);
      expect(summary.status, JSON.stringify(summary.error)).toBe("failed");
      expect(summary.error?.code, summary.error?.message).toBe(bad.code);
      expect(summary.error?.file).toMatch(
        typeof bad.file === "string"
          ? new RegExp(`^${bad.file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`)
          : bad.file,
      );
      if (bad.field !== undefined) expect(summary.error?.field ?? "").toBe(bad.field);
      if (bad.says) expect(summary.error?.message).toMatch(bad.says);
      if (bad.secret) {
        const seen = `${JSON.stringify(summary)}\n${JSON.stringify(events)}\n${await everything(dir)}`;
        const pieces = Array.from({ length: bad.secret.length - 7 }, (_, i) => bad.secret!.slice(i, i + 8));
        expect(pieces.filter((p) => seen.includes(p))).toEqual([]);
      }
    },
    30_000,
  );
});

describe("hostile leftovers that a run must step around", () => {
  it("a symlink planted at the prompt's temp name is replaced, never followed out", async () => {
    const { dir, outside } = await prepare({
      name: "temp",
      seats: "manual",
      setup: async () => {},
      code: "",
      file: "",
    });
    const prompt = await readFile(path(dir, PROMPT), "utf8");
    await rm(path(dir, PROMPT));
    await symlink(path(outside, "keep.txt"), path(dir, `${PROMPT}.${process.pid}.tmp`));
    const summary = await runDebate(dir, { env: {}, cwd: base, skillRoots: [] });
    expect(summary.status).toBe("waiting");
    expect(await readFile(path(outside, "keep.txt"), "utf8")).toBe("outside the debate\n");
    expect(await readFile(path(dir, PROMPT), "utf8")).toBe(prompt);
    expect(await readdir(path(dir, "prompts"))).toEqual(["e000-opposition.md", "e000-proposition.md"]);
  });
});

describe("a seat that throws while the other is still answering", () => {
  it("the run ends only after the other seat's answer is journaled (nothing is written after the lock is released)", async () => {
    const { dir } = await prepare({ name: "late", setup: async () => {}, code: "", file: "" });
    // A folder where the recording should be: the seat is made (its path is inside), its call throws.
    await propositionFile("answers.jsonl")(dir);
    await mkdir(path(dir, "answers.jsonl"));
    const lines = (await readFile(path(dir, "replay.jsonl"), "utf8")).trim().split("\n");
    const slowed = lines.map((l) => {
      const e = JSON.parse(l) as { exchange: number; role: string };
      return e.exchange === 0 && e.role === "opposition" ? JSON.stringify({ ...e, delay_ms: 400 }) : l;
    });
    await writeFile(path(dir, "replay.jsonl"), `${slowed.join("\n")}\n`);
    const summary = await runDebate(dir, { env: {}, cwd: base, skillRoots: [] });
    expect(summary.error?.code).toBe("FILE_NOT_REGULAR");
    // Right when the run returns, the opposition's call is over and journaled, and the lock is gone.
    expect(await readdir(path(dir, ".debate/journal"))).toEqual(["x0000-1-arguments-opposition-a001.json"]);
    expect(await readdir(path(dir, ".debate"))).not.toContain("lock");
  });
});
