// Debates built from the examples' recorded answers, extended to a length, driven through a format's
// pure functions (next, prompt, parseAnswer, apply): every prompt a seat would be sent, in order.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DebateState } from "@debatekit/core";
import { formatOfState } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";

const examples = new URL("../../examples/", import.meta.url).pathname;

/** One prompt as a seat received it. */
export interface SentPrompt {
  role: string;
  exchange: number;
  text: string;
}

interface Entry {
  exchange: number;
  role: string;
  text: string;
  attempt?: number;
}

/** The accepted answer of each (exchange, role) of an example's replay (the last attempt). */
async function recorded(example: string): Promise<Map<string, string>> {
  const lines = (await readFile(join(examples, example, "replay.jsonl"), "utf8")).trim().split("\n");
  const answers = new Map<string, string>();
  for (const line of lines) {
    const e = JSON.parse(line) as Entry;
    answers.set(`${e.exchange}:${e.role}`, e.text);
  }
  return answers;
}

/** The JSON object in a recorded answer (some are wrapped in prose and a fence, as models write them). */
function jsonOf(text: string): Record<string, unknown> {
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Record<string, unknown>;
}

async function initialState(example: string, edit: (debateMd: string) => string): Promise<DebateState> {
  const { mkdtemp, cp, writeFile, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const dir = await mkdtemp(join(tmpdir(), "bench-prompts-"));
  try {
    await cp(join(examples, example), dir, { recursive: true });
    const debate = await readFile(join(dir, "debate.md"), "utf8");
    await writeFile(join(dir, "debate.md"), edit(debate));
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    return read.value.state;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a debate through its format, answering with `answer`; returns every prompt sent. */
function drive(
  start: DebateState,
  answer: (state: DebateState, role: string) => string,
  prompt: (state: DebateState, role: string) => string,
): SentPrompt[] {
  const sent: SentPrompt[] = [];
  let state = start;
  let at = Date.parse("2026-11-24T00:00:00Z");
  for (;;) {
    const format = formatOfState(state);
    const step = format.next(state);
    if (step.kind === "done") return sent;
    if (step.kind !== "ask") throw new Error(`unexpected step ${JSON.stringify(step)}`);
    const answers: Record<string, unknown> = {};
    for (const { role } of step.asks) {
      sent.push({ role, exchange: step.exchange, text: prompt(state, role) });
      const parsed = format.parseAnswer(state, role, answer(state, role));
      if (!parsed.ok)
        throw new Error(`${role} at ${step.exchange}: ${parsed.errors.map((e) => e.message).join("; ")}`);
      answers[role] = parsed.value;
    }
    at += 60_000;
    const next = format.apply(state, answers, new Date(at).toISOString());
    if (!next.ok) throw new Error(`apply at ${step.exchange}: ${JSON.stringify(next.errors)}`);
    state = next.value;
  }
}

const pad3 = (n: number) => String(n).padStart(3, "0");
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The ai-review-gate example (formal) extended to `exchanges`: its recorded openings and four
 * rebuttal exchanges, then those four rebuttals and judgments again in turn, their attacks and
 * defends pointed at the latest arguments, the judge's rescores at arguments of the two previous
 * exchanges (so scores keep changing, as they do in a real debate).
 */
export async function formalPrompts(
  exchanges: number,
  window?: number,
  prompt: (state: DebateState, role: string) => string = (s, r) => formatOfState(s).prompt(s, r),
): Promise<SentPrompt[]> {
  const answers = await recorded("ai-review-gate");
  const start = await initialState("ai-review-gate", (md) =>
    md.replace(
      /^exchanges: \d+$/m,
      `exchanges: ${exchanges}${window === undefined ? "" : `\ncontext: { window: ${window} }`}`,
    ),
  );
  return drive(
    start,
    (state, role) => {
      const x = state.frontmatter.current_exchange;
      if (x === 0) return answers.get(`0:${role}`)!;
      const model = jsonOf(answers.get(`${((x - 1) % 4) + 1}:${role}`)!);
      const idAt = (side: string, e: number, i: number) =>
        e === 0 ? `${side}_000${"abc"[i % 3]}` : `${side}_${pad3(e)}`;
      if (role === "judge") {
        const scores = (model.scores as Array<{ argument_id: string }>).map((s) => ({
          ...s,
          argument_id: s.argument_id.startsWith("prop") ? `prop_${pad3(x)}` : `opp_${pad3(x)}`,
        }));
        const rescores = ((model.rescores ?? []) as Array<Record<string, unknown>>).map((r, i) => {
          const side = String(r.argument_id).slice(0, String(r.argument_id).indexOf("_"));
          const id = idAt(side, Math.max(0, x - 1 - i), i);
          const old = state.scores[id]!.current_score;
          const delta = Number(r.new_score) - Number(r.old_score);
          const wanted = round2(Math.max(-1, Math.min(1, old + delta)));
          return { ...r, argument_id: id, old_score: old, new_score: wanted };
        });
        return JSON.stringify({ scores, rescores }, null, 2);
      }
      const own = role === "proposition" ? "prop" : "opp";
      const other = role === "proposition" ? "opp" : "prop";
      const [argument] = model.arguments as Array<Record<string, unknown>>;
      const attacks = ((argument!.attacks ?? []) as Array<Record<string, unknown>>).map((a, i) => ({
        ...a,
        target_id: idAt(other, Math.max(0, x - 1 - i), i),
      }));
      const defends = ((argument!.defends ?? []) as Array<Record<string, unknown>>).map((d, i) => ({
        ...d,
        target_id: idAt(own, Math.max(0, x - 1 - i), i),
      }));
      return JSON.stringify({ arguments: [{ ...argument, attacks, defends }] }, null, 2);
    },
    prompt,
  );
}

/**
 * The crossfire-grpc example at `rounds` rounds (at most 5): its three recorded rounds, rounds 4
 * and 5 answered with round 3's turns (their point ids moved on by a round), and each summary
 * from round 4 the recorded one (it covers what the rules require of it).
 */
export async function crossfirePrompts(
  rounds: number,
  prompt: (state: DebateState, role: string) => string = (s, r) => formatOfState(s).prompt(s, r),
): Promise<SentPrompt[]> {
  const answers = await recorded("crossfire-grpc");
  const start = await initialState("crossfire-grpc", (md) =>
    md.replace(/^rounds: \d+$/m, `rounds: ${rounds}`),
  );
  return drive(
    start,
    (state, role) => {
      const round = state.frontmatter.current_exchange;
      if (role === "judge") return answers.get(`3:judge`)!;
      if (role === "summarizer" && round > 3) {
        // The recorded summary, quoting every concession made in the rounds it now covers.
        const summary = jsonOf(answers.get("3:summarizer")!);
        const concessions = (state.records ?? [])
          .filter((r) => /^turns\/r0\d-(proposer|challenger)\.md$/.test(r.file))
          .filter((r) => Number(r.file.slice(7, 9)) <= round - 2)
          .flatMap((r) => ((r.frontmatter.concessions ?? []) as Array<{ text: string }>).map((c) => c.text));
        return JSON.stringify({ ...summary, concessions: [...new Set(concessions)] }, null, 2);
      }
      const from = Math.min(round, 3);
      const text = answers.get(`${from}:${role}`)!;
      const shift = round - from;
      if (shift === 0) return text;
      return text.replace(/\b([PC])(\d)\.(\d+)\b/g, (whole, side: string, r: string, n: string) =>
        Number(r) >= 2 ? `${side}${Number(r) + shift}.${n}` : whole,
      );
    },
    prompt,
  );
}

/**
 * The review-sum example's review of a Redis proposal, its 3 rounds as recorded (critic, judge,
 * author in turn, the author's revisions included): every prompt its seats were sent.
 */
export async function reviewPrompts(
  prompt: (state: DebateState, role: string) => string = (s, r) => formatOfState(s).prompt(s, r),
): Promise<SentPrompt[]> {
  const answers = await recorded("review-sum/redis");
  const start = await initialState("review-sum/redis", (md) => md);
  return drive(start, (state, role) => answers.get(`${state.frontmatter.current_exchange}:${role}`)!, prompt);
}
