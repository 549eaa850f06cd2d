import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DebateState, Result } from "@debatekit/core";
import {
  applyArguments,
  applyJudgment,
  cumulativeScores,
  nextAction,
  parseJudgeAnswer,
  parseSideAnswer,
} from "@debatekit/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitStep } from "./commit.js";
import { stringifyJson } from "./json-text.js";
import type { DebateFolder } from "./read.js";
import { readDebateFolder } from "./read.js";
import { makeTempDir } from "./test-helpers/folder.js";

// The example debate of the repository, run to the end through core's rules and commitStep, with the
// recorded answers of its replay.jsonl (what the replay adapter answers). Only the runner's process
// handling is left out: the files written are the ones a real run writes.
const EXAMPLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../examples/ai-review-gate",
);

interface Recorded {
  exchange: number;
  role: "proposition" | "opposition" | "judge";
  attempt?: number;
  text: string;
}

let dir: string;
let cleanup: () => Promise<void>;
let recording: Recorded[];
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("debatekit-example-run-"));
  await cp(EXAMPLE, dir, { recursive: true });
  recording = (await readFile(path.join(EXAMPLE, "replay.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Recorded);
});
afterEach(() => cleanup());

/** The first recorded answer of this seat step that passes core's checks (a retried seat has several). */
function answer<T>(state: DebateState, role: Recorded["role"], parse: (text: string) => Result<T>): T {
  const exchange = state.frontmatter.current_exchange;
  const attempts = recording.filter((r) => r.exchange === exchange && r.role === role);
  for (const recorded of attempts) {
    const parsed = parse(recorded.text);
    if (parsed.ok) return parsed.value;
  }
  throw new Error(`no valid recorded answer for the ${role} at exchange ${exchange}`);
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

/** Runs the debate to its end, one commitStep per step; calls `afterCommit` with debate.md after each. */
async function runToEnd(afterCommit: (text: string, step: number) => void): Promise<DebateFolder> {
  let folder = unwrap(await readDebateFolder(dir));
  for (let step = 0; ; step++) {
    const state = folder.state;
    const action = nextAction(state);
    if (action.kind === "done") return folder;
    if (action.kind === "arguments") {
      const proposition = answer(state, "proposition", (t) => parseSideAnswer(state, "proposition", t));
      const opposition = answer(state, "opposition", (t) => parseSideAnswer(state, "opposition", t));
      folder = await commitStep(
        folder,
        unwrap(applyArguments(state, action.exchange, { proposition, opposition })),
      );
    } else if (action.kind === "judgment") {
      const judgment = answer(state, "judge", (t) => parseJudgeAnswer(state, t));
      const now = new Date(Date.UTC(2026, 10, 22, 0, step)).toISOString();
      folder = await commitStep(folder, unwrap(applyJudgment(state, action.exchange, judgment, now)));
    } else
      throw new Error(action.kind === "blocked" ? `blocked: ${action.message}` : `unexpected ${action.kind}`);
    afterCommit(await readFile(path.join(dir, "debate.md"), "utf8"), step);
  }
}

/** The state keys of debate.md (docs/architecture.md#the-debate-folder) the engine moves: the marker and, in their block, the cumulative scores. */
function stateLines(lines: string[]): Set<number> {
  const moved = new Set<number>();
  let inScores = false;
  lines.forEach((line, i) => {
    if (/^\S/.test(line)) inScores = line.startsWith("cumulative_scores:");
    if (inScores || /^(current_exchange|current_phase):/.test(line)) moved.add(i);
  });
  return moved;
}

/** The frontmatter lines of a YAML debate.md (between the `---` lines). */
function frontmatterLines(text: string): string[] {
  const lines = text.split("\n");
  return lines.slice(1, lines.indexOf("---", 1));
}

/** Asserts that `after` differs from `before` only on state lines, line for line, and has the same body. */
function expectOnlyStateLinesChanged(before: string, after: string): void {
  const was = frontmatterLines(before);
  const now = frontmatterLines(after);
  expect(now.length).toBe(was.length);
  const allowed = stateLines(was);
  const changed = was.flatMap((line, i) => (line === now[i] ? [] : [i]));
  expect(changed.filter((i) => !allowed.has(i)).map((i) => [was[i], now[i]])).toEqual([]);
  expect(after.slice(after.indexOf("\n---\n"))).toBe(before.slice(before.indexOf("\n---\n")));
}

const HAND_EDITED = `---
# ai-review-gate, edited by hand
format: "formal"
debate_id: 'ai-review-gate'

# the engine moves these two
current_phase: awaiting_arguments   # commit marker
current_exchange:   0


exchanges: 5 # raise it to continue
seats:
  opposition:  {adapter: replay, file: 'replay.jsonl'}   # aligned by hand
  proposition: { adapter: replay, file: "replay.jsonl" }
  judge:       { adapter: replay, file: replay.jsonl }
retries: 2
skills: { enabled: false }
cumulative_scores:
  opposition:  { total: 0, count: 0 }
  proposition:
    total: 0     # block style on this side
    count: 0
# a closing comment
---
`;

describe("a full run of the example keeps a hand-edited debate.md as written", () => {
  it("changes only the state lines of debate.md's frontmatter, keeping their comments, quoting and spacing", async () => {
    const example = await readFile(path.join(dir, "debate.md"), "utf8");
    const original = HAND_EDITED + example.slice(example.indexOf("\n---\n") + 5);
    await writeFile(path.join(dir, "debate.md"), original);
    const seen: string[] = [];
    const done = await runToEnd((text) => {
      expectOnlyStateLinesChanged(original, text);
      seen.push(text);
    });
    expect(seen).toHaveLength(10);
    const final = seen.at(-1)!;
    const reread = unwrap(await readDebateFolder(dir));
    expect(reread.state.frontmatter).toEqual(done.state.frontmatter);
    expect(reread.state.frontmatter).toMatchObject({
      current_exchange: 5,
      current_phase: "complete",
    });
    const cumulative = cumulativeScores(reread.state.scores);
    expect(reread.state.frontmatter.cumulative_scores).toEqual(cumulative);
    expect(cumulative.proposition.count).toBe(7);
    // The changed lines kept what surrounds their values.
    const was = frontmatterLines(original);
    const now = frontmatterLines(final);
    const at = (prefix: string) => now[was.findIndex((line) => line.startsWith(prefix))];
    expect(at("current_phase:")).toBe("current_phase: complete   # commit marker");
    expect(at("current_exchange:")).toBe("current_exchange:   5");
    expect(at("  opposition:  { total")).toBe(
      `  opposition:  { total: ${cumulative.opposition.total}, count: ${cumulative.opposition.count} }`,
    );
    expect(at("    total:")).toBe(
      `    total: ${cumulative.proposition.total}     # block style on this side`,
    );
    expect(at("    count:")).toBe(`    count: ${cumulative.proposition.count}`);
    // A judgment step's debate.md differs from the one before it in the marker and the scores only.
    expect(seen[1]).toContain("current_phase: awaiting_arguments   # commit marker");
    expect(seen[0]).toContain("current_phase: awaiting_judgment   # commit marker");
  });

  it("appends cumulative_scores when the file has none, leaving every line above it in place", async () => {
    const example = await readFile(path.join(dir, "debate.md"), "utf8");
    const withoutScores = HAND_EDITED.replace(/cumulative_scores:\n(?: .*\n)+/, "");
    const original = withoutScores + example.slice(example.indexOf("\n---\n") + 5);
    await writeFile(path.join(dir, "debate.md"), original);
    const seen: string[] = [];
    await runToEnd((text) => seen.push(text));
    const was = frontmatterLines(original);
    // The arguments step adds no key; the first judgment appends the scores after the last line.
    expectOnlyStateLinesChanged(original, seen[0]!);
    for (const text of seen.slice(1)) {
      const now = frontmatterLines(text);
      const moved = stateLines(was);
      expect(now.slice(0, was.length).filter((line, i) => line !== was[i] && !moved.has(i))).toEqual([]);
      expect(now.slice(was.length)).toEqual([
        "cumulative_scores:",
        expect.stringMatching(/^ {2}proposition: \{ total: -?[\d.]+, count: \d+ \}$/),
        expect.stringMatching(/^ {2}opposition: \{ total: -?[\d.]+, count: \d+ \}$/),
      ]);
    }
    const reread = unwrap(await readDebateFolder(dir));
    expect(reread.state.frontmatter.cumulative_scores).toEqual(cumulativeScores(reread.state.scores));
  });

  it("keeps a JSON (dialectic-style) debate.md as 2-space JSON in its own key order", async () => {
    const yaml = unwrap(await readDebateFolder(dir));
    const { seats, ...rest } = yaml.state.frontmatter;
    const ordered = { seats, ...rest };
    await writeFile(path.join(dir, "debate.md"), `${stringifyJson(ordered)}\n${yaml.state.body}`);
    const done = await runToEnd(() => {});
    const text = await readFile(path.join(dir, "debate.md"), "utf8");
    expect(done.styles.debate).toBe("json");
    expect(text).toBe(`${stringifyJson({ ...ordered, ...done.state.frontmatter })}\n${yaml.state.body}`);
    expect(Object.keys(JSON.parse(text.slice(0, text.indexOf("\n}\n") + 2)))[0]).toBe("seats");
  });
});

describe("a reader beside a running debate", () => {
  it("always reads a committed state, never one step's scores.json with the step before's debate.md", async () => {
    let running = true;
    const failures: string[] = [];
    let reads = 0;
    // Readers run while the steps commit: each read must be whole (one commit's files), never invalid.
    const reader = async () => {
      while (running) {
        const read = await readDebateFolder(dir);
        reads++;
        if (!read.ok) failures.push(read.errors.map((e) => e.message).join("; "));
      }
    };
    const readers = [reader(), reader(), reader()];
    try {
      await runToEnd(() => undefined);
    } finally {
      running = false;
      await Promise.all(readers);
    }
    expect(reads).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});
