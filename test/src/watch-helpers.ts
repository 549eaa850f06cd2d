import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DebateWatcher, type WatchEvent, type WatchOptions, watchDebates } from "@debatekit/cli";
import { afterEach, beforeEach } from "vitest";
import { repoRoot } from "./workspace.js";

const example = join(repoRoot, "examples/ai-review-gate");

/** The example's recorded answers by step stem (`e001-judge`), the valid (last) attempt of each. */
export async function recordedAnswers(): Promise<Map<string, string>> {
  const lines = (await readFile(join(example, "replay.jsonl"), "utf8")).trim().split("\n");
  const answers = new Map<string, string>();
  for (const line of lines) {
    const entry = JSON.parse(line) as { exchange: number; role: string; text: string };
    answers.set(`e${String(entry.exchange).padStart(3, "0")}-${entry.role}`, entry.text);
  }
  return answers;
}

/** What a test debate.md may vary. */
export interface DebateOptions {
  exchanges?: number;
  paused?: boolean;
  judgeModel?: string;
}

/** Creates a debate folder whose three seats are all `manual`, with the example's motion. */
export async function createManualDebate(
  parent: string,
  slug: string,
  options: DebateOptions = {},
): Promise<string> {
  const source = await readFile(join(example, "debate.md"), "utf8");
  const body = source.slice(source.indexOf("---", 3) + 4);
  const dir = join(parent, slug);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "debate.md"), debateText(slug, body, options));
  return dir;
}

/** The text of a manual debate.md at the opening, with the given `exchanges` and `paused`. */
export function debateText(slug: string, body: string, options: DebateOptions): string {
  return [
    "---",
    `debate_id: ${slug}`,
    "format: formal",
    `exchanges: ${options.exchanges ?? 3}`,
    ...(options.paused !== undefined ? [`paused: ${options.paused}`] : []),
    "current_exchange: 0",
    "current_phase: awaiting_arguments",
    "seats:",
    "  proposition: { adapter: manual }",
    "  opposition: { adapter: manual }",
    `  judge: { adapter: manual${options.judgeModel ? `, model: ${options.judgeModel}` : ""} }`,
    "cumulative_scores:",
    "  proposition: { total: 0, count: 0 }",
    "  opposition: { total: 0, count: 0 }",
    "---",
    body,
  ].join("\n");
}

/**
 * Drops an answer into inbox/ as another agent would: `rename` writes it next to it and renames it
 * in (atomic), `write` writes the file in place (as an editor or a plain `>` redirect does).
 */
export async function dropAnswer(
  dir: string,
  stem: string,
  text: string,
  how: "rename" | "write",
): Promise<void> {
  await mkdir(join(dir, "inbox"), { recursive: true });
  const target = join(dir, "inbox", `${stem}.json`);
  if (how === "write") return writeFile(target, text);
  const temp = join(dir, "inbox", `.${stem}.json.tmp`);
  await writeFile(temp, text);
  await rename(temp, target);
}

/** The events `until` quotes when it times out (set by the test that records them). */
let trail: readonly WatchEvent[] | undefined;

/** Makes a timed-out `until` quote the last of these events, so a failure on CI says what happened. */
function traceEvents(events: readonly WatchEvent[] | undefined): void {
  trail = events;
}

/** What each test of a watch test file gets from {@link useWatchSandbox}. */
export interface WatchSandbox {
  /** The test's own temp folder. */
  readonly work: string;
  /** The events of the watcher `watch` started (a timed-out `until` quotes the last of them). */
  readonly events: WatchEvent[];
  /** Starts the watcher on the temp folder, recording its events; it is closed after the test. */
  watch(options?: Omit<WatchOptions, "onEvent">): DebateWatcher;
}

/** Gives every test of the file a fresh temp folder and closes its watcher and removes the folder after it. */
export function useWatchSandbox(prefix: string): WatchSandbox {
  let work = "";
  let events: WatchEvent[] = [];
  let watcher: DebateWatcher | undefined;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), prefix));
    events = [];
    traceEvents(events);
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await rm(work, { recursive: true, force: true });
  });
  return {
    get work() {
      return work;
    },
    get events() {
      return events;
    },
    watch(options = {}) {
      watcher = watchDebates([work], { ...options, onEvent: (e) => events.push(e) });
      return watcher;
    },
  };
}

/** Polls `check` until it returns true; fails with `what` (and the last events) after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) {
      const last = (trail ?? []).slice(-25).map((e) => JSON.stringify(e));
      throw new Error(
        `timed out waiting for: ${what}${last.length ? `\nlast events:\n${last.join("\n")}` : ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The step_committed events of one debate, as "exchange:phase" of the step they left. */
export function committedSteps(events: WatchEvent[], dir: string): string[] {
  return events
    .filter(
      (e): e is Extract<WatchEvent, { type: "step_committed" }> =>
        e.type === "step_committed" && e.dir === dir,
    )
    .map((e) => `${e.from.exchange}:${e.from.phase}`);
}

/** Every step of a formal debate up to `exchanges`, in order, as committedSteps names them. */
export function expectedSteps(exchanges: number): string[] {
  return Array.from({ length: exchanges }, (_, x) => [
    `${x}:awaiting_arguments`,
    `${x}:awaiting_judgment`,
  ]).flat();
}

/** Names of the journal files of a debate. */
export async function journalFiles(dir: string): Promise<string[]> {
  return (await readdir(join(dir, ".debate/journal")).catch(() => [])).sort();
}

/** The frontmatter line `key: value` of debate.md, parsed loosely for assertions. */
export async function frontmatterValue(dir: string, key: string): Promise<string | undefined> {
  const text = await readFile(join(dir, "debate.md"), "utf8");
  return new RegExp(`^${key}: (.*)$`, "m").exec(text)?.[1];
}
