import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyFormat, crossfireFormat as builtin, type DebateState } from "@debatekit/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitStep } from "./commit.js";
import { createDebateFolder } from "./create.js";
import { parseDebateFile } from "./documents.js";
import { readJournal, writeJournalEntry } from "./journal.js";
import { type DebateFolder, readDebateFolder } from "./read.js";

// A format's own record files (crossfire's turns/), written and read through the format: files names no format.
// Held as the registry holds it (AnyFormat): files never knows a format's own frontmatter type.
const crossfireFormat: AnyFormat = builtin;
let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "files-records-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const opening = JSON.stringify({
  position: "Move to gRPC.",
  points: [
    { claim: "Smaller payloads.", evidence: [{ kind: "benchmark", ref: "bench.md", detail: "3x smaller" }] },
  ],
});

async function newCrossfire(): Promise<DebateFolder> {
  const made = crossfireFormat.newDebate({
    slug: "grpc",
    seats: { proposer: "replay", challenger: "replay", judge: "replay" },
    now: "2026-01-01T00:00:00Z",
  });
  if (!made.ok) throw new Error("newDebate");
  const dir = await createDebateFolder(base, {
    slug: "grpc",
    motion: "Should we move to gRPC?",
    frontmatter: made.value.frontmatter,
  });
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.value;
}

function proposerStep(state: DebateState): DebateState {
  const parsed = crossfireFormat.parseAnswer(state, "proposer", opening);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const next = crossfireFormat.apply(state, { proposer: parsed.value }, "2026-01-01T00:00:00Z");
  if (!next.ok) throw new Error(JSON.stringify(next.errors));
  return next.value;
}

describe("records of a format", () => {
  it("creates the format's folders, commits a record before debate.md and reads it back", async () => {
    const folder = await newCrossfire();
    expect((await stat(join(folder.dir, "turns"))).isDirectory()).toBe(true);
    await expect(stat(join(folder.dir, "arguments"))).rejects.toThrow();
    const written: string[] = [];
    const after = await commitStep(folder, proposerStep(folder.state), {
      beforeWrite: (p) => void written.push(p.slice(folder.dir.length + 1)),
    });
    expect(written).toEqual(["turns/r01-proposer.md", "debate.md"]);
    expect(await readFile(join(folder.dir, "turns/r01-proposer.md"), "utf8")).toMatch(
      /^---\nround: 1\nrole: proposer\nkind: opening\n/,
    );
    const read = await readDebateFolder(folder.dir);
    expect(read.ok && read.value.state.records).toEqual(after.state.records);
  });

  it("leaves a record of an uncommitted step invisible", async () => {
    const folder = await newCrossfire();
    await writeFile(
      join(folder.dir, "turns/r01-proposer.md"),
      "---\nround: 1\nposition: leftover\npoints: [{claim: x, unsupported: true}]\n---\n",
    );
    const read = await readDebateFolder(folder.dir);
    expect(read.ok && read.value.state.records).toEqual([]);
  });

  it("refuses a record the format does not name (RECORD_PATH_INVALID) and a change to a committed one (RECORD_REWRITE)", async () => {
    const folder = await newCrossfire();
    const next = proposerStep(folder.state);
    const outside = { ...next, records: [{ ...next.records![0]!, file: "../outside.md" }] };
    await expect(commitStep(folder, outside)).rejects.toMatchObject({ code: "RECORD_PATH_INVALID" });
    const after = await commitStep(folder, next);
    const changed = { ...after.state, records: [{ ...after.state.records![0]!, body: "\nrewritten\n" }] };
    await expect(commitStep(after, changed)).rejects.toMatchObject({
      code: "RECORD_REWRITE",
      file: "turns/r01-proposer.md",
    });
  });

  it("checks a committed record's frontmatter against its schema, naming the file and field", async () => {
    const folder = await newCrossfire();
    const after = await commitStep(folder, proposerStep(folder.state));
    await writeFile(
      join(after.dir, "turns/r01-proposer.md"),
      "---\nround: 1\nposition: p\npoints: []\n---\n",
    );
    const read = await readDebateFolder(after.dir);
    expect(!read.ok && read.errors[0]).toMatchObject({
      code: "RECORD_FIELD_INVALID",
      path: "turns/r01-proposer.md:points",
    });
  });

  it("re-checks a committed record with the rules its answer had to pass (a hand edit cannot add what a model could not)", async () => {
    const folder = await newCrossfire();
    const after = await commitStep(folder, proposerStep(folder.state));
    const file = join(after.dir, "turns/r01-proposer.md");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("id: P1.1", "id: P1.5"));
    const read = await readDebateFolder(after.dir);
    expect(!read.ok && read.errors[0]).toMatchObject({
      code: "RECORD_IDS_MISMATCH",
      path: "turns/r01-proposer.md:points",
    });
  });

  it("selects debate.md's schema by `format`: an unknown format is an error on `format`", () => {
    const parsed = parseDebateFile(
      "---\ndebate_id: x\nformat: quiz\ncurrent_exchange: 0\ncurrent_phase: awaiting_arguments\n---\n# Motion\n\nm\n",
    );
    expect(!parsed.ok && parsed.errors[0]).toMatchObject({
      code: "DEBATE_FIELD_INVALID",
      path: "debate.md:format",
    });
    const crossfireWithFormalKeys = parseDebateFile(
      "---\ndebate_id: x\nformat: crossfire\nrounds: 2\nexchanges: 3\ncurrent_exchange: 1\ncurrent_phase: awaiting_proposer\n---\n# Motion\n\nm\n",
    );
    expect(!crossfireWithFormalKeys.ok && crossfireWithFormalKeys.errors[0]!.message).toContain("exchanges");
  });

  it("names journal files by the format's step", async () => {
    const folder = await newCrossfire();
    const entry = {
      version: 1 as const,
      debate_id: "grpc",
      exchange: 1,
      phase: "awaiting_challenger",
      role: "challenger",
      attempt: 1,
      prompt_sha256: "0".repeat(64),
      started_at: "2026-01-01T00:00:00Z",
      finished_at: "2026-01-01T00:00:01Z",
      result: { status: "ok" as const, text: "{}", durationMs: 1, transport: "file" as const },
    };
    expect(await writeJournalEntry(folder.dir, entry, { env: {} })).toMatch(
      /x0001-2-challenger-challenger-a001\.json$/,
    );
    expect(await readJournal(folder.dir, { exchange: 1, phase: "awaiting_challenger" })).toHaveLength(1);
    await expect(
      writeJournalEntry(folder.dir, { ...entry, phase: "awaiting_nothing" }, { env: {} }),
    ).rejects.toMatchObject({ code: "JOURNAL_PHASE_UNKNOWN" });
  });
});
