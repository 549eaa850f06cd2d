// Exported as "@debatekit/core/testing" only: the conformance suite a format's own tests run, in
// process, with vitest (a peer dependency of this entry point alone; the runtime entry imports no
// test framework). The built-in formats pass it exactly as an outside format does.
import { describe, expect, it } from "vitest";
import {
  FORMAT_SPEC_VERSION,
  type Format,
  type FormatStep,
  type NewDebateInit,
  type SeatAsk,
} from "./formats/format.js";
import { checkFormat } from "./formats/registry.js";
import type { DebateState, FrontmatterBase, Result } from "./types.js";

/** Where a scripted seat is asked: the state, and the step's marker (what a replay file is keyed by). */
export interface ScriptAt<F extends FrontmatterBase = FrontmatterBase> {
  state: DebateState<F>;
  exchange: number;
  phase: string;
}

/** A debate played from the start with scripted seats: what `testFormat` drives the format through. */
export interface FormatScript<F extends FrontmatterBase = FrontmatterBase> {
  /** What `debate new` passes to the format (`now` is the suite's), with the motion. */
  init?: Omit<NewDebateInit, "now"> & { motion: string };
  /** Or a committed state to start from, as files reads a folder (a review's snapshotted artifact). */
  start?: DebateState<F>;
  /**
   * The answer text a seat gives when asked (a model's raw answer, as a replay file holds it), or its
   * attempts in order: each but the last must be refused (the runner would ask again), the last accepted.
   */
  answer(ask: SeatAsk, at: ScriptAt<F>): string | readonly string[];
  /** The most steps the script may take before the suite calls it a loop (default 60). */
  maxSteps?: number;
}

/** One step the script took: the step, the state it started from and the state it committed. */
export interface ScriptedStep<F extends FrontmatterBase = FrontmatterBase> {
  step: FormatStep;
  before: DebateState<F>;
  after: DebateState<F>;
  /** The checked answers applied, by role (an `advance` step has none). */
  answers: Readonly<Record<string, unknown>>;
}

/** One line of a replay file (`replay.jsonl`): a seat's answer at an exchange. */
export interface ReplayLine {
  exchange: number;
  role: string;
  text: string;
  attempt?: number;
}

/** What every rule error's code looks like: stable, machine-readable. */
const STABLE_CODE = /^[A-Z][A-Z0-9_]+$/;

/** The time every state of the suite is made at: a fixed one, so two plays can be compared. */
export const SCRIPT_NOW = "2026-01-01T00:00:00.000Z";

/** A scripted seat that answers from a replay file, every attempt in order, as the `replay` adapter does. */
export function replayAnswers(lines: readonly ReplayLine[]): FormatScript["answer"] {
  const byKey = new Map<string, Array<{ attempt: number; text: string }>>();
  for (const line of lines) {
    const key = `${line.exchange}/${line.role}`;
    byKey.set(key, [...(byKey.get(key) ?? []), { attempt: line.attempt ?? 1, text: line.text }]);
  }
  return (ask, at) => {
    const attempts = byKey.get(`${at.exchange}/${ask.role}`);
    if (!attempts) throw new Error(`the replay has no answer for ${ask.role} at exchange ${at.exchange}`);
    return attempts.sort((a, b) => a.attempt - b.attempt).map((a) => a.text);
  };
}

/** The state a script starts from: its `start`, or a new debate as `debate new` writes it and files reads it back. */
export function newState<F extends FrontmatterBase>(
  format: Format<F>,
  script: FormatScript<F>,
): DebateState<F> {
  if (script.start) return script.start;
  if (!script.init) throw new Error("a format script needs `init` or `start`");
  const { motion, ...init } = script.init;
  const made = unwrap(format.newDebate({ ...init, now: SCRIPT_NOW }), "newDebate");
  return {
    frontmatter: made.frontmatter,
    body: `# Motion\n\n${motion}\n`,
    motion: { text: motion },
    arguments: [],
    scores: {},
    records: [],
  } as unknown as DebateState<F>;
}

function unwrap<T>(result: Result<T>, what: string): T {
  if (result.ok) return result.value;
  throw new Error(
    `${what} refused: ${result.errors.map((e) => `${e.code} ${e.path}: ${e.message}`).join("; ")}`,
  );
}

/** The checked answers of an `ask` step, parsed against the state the step started from. */
function answersOf<F extends FrontmatterBase>(
  format: Format<F>,
  state: DebateState<F>,
  step: Extract<FormatStep, { kind: "ask" }>,
  script: FormatScript<F>,
): Record<string, unknown> {
  const at = { state, exchange: step.exchange, phase: step.phase };
  const answers: Record<string, unknown> = {};
  for (const ask of step.asks) {
    const prompt = format.prompt(state, ask.role);
    if (typeof prompt !== "string" || prompt.trim() === "")
      throw new Error(`prompt(${ask.role}) at ${step.phase} gave no text`);
    const given = script.answer(ask, at);
    const attempts = typeof given === "string" ? [given] : given;
    attempts.forEach((text, index) => {
      const parsed = format.parseAnswer(state, ask.role, text);
      const where = `parseAnswer(${ask.role}) at ${step.phase}, attempt ${index + 1}`;
      if (index === attempts.length - 1) answers[ask.role] = unwrap(parsed, where);
      else if (parsed.ok) throw new Error(`${where} accepted an answer the script gives as refused`);
      else
        for (const e of parsed.errors)
          if (!STABLE_CODE.test(e.code)) throw new Error(`${where}: code ${e.code}`);
    });
  }
  return answers;
}

/**
 * Plays a script from `state` until the format says done: each `ask` step's answers parsed and
 * applied together (as the runner does), each `advance` step advanced. Throws, naming the step, when
 * the format refuses its own script, blocks, or does not finish within `maxSteps`.
 */
export function playScript<F extends FrontmatterBase>(
  format: Format<F>,
  script: FormatScript<F>,
  from: DebateState<F> = newState(format, script),
): { steps: ScriptedStep<F>[]; final: DebateState<F> } {
  const steps: ScriptedStep<F>[] = [];
  let state = from;
  for (let taken = 0; taken <= (script.maxSteps ?? 60); taken++) {
    const step = format.next(state);
    if (step.kind === "done") return { steps, final: state };
    if (step.kind === "blocked")
      throw new Error(`blocked after ${taken} step(s): ${step.reason}: ${step.message}`);
    if (step.kind === "advance") {
      if (!format.advance)
        throw new Error(`next() said advance (${step.reason}) but the format has no advance()`);
      const after = unwrap(format.advance(state, SCRIPT_NOW), `advance (${step.reason})`);
      steps.push({ step, before: state, after, answers: {} });
      state = after;
      continue;
    }
    const answers = answersOf(format, state, step, script);
    const after = unwrap(format.apply(state, answers, SCRIPT_NOW, { spentMs: 0 }), `apply at ${step.phase}`);
    steps.push({ step, before: state, after, answers });
    state = after;
  }
  throw new Error(`the script did not finish within ${script.maxSteps ?? 60} steps`);
}

const marker = (state: DebateState<FrontmatterBase>) =>
  `${state.frontmatter.current_exchange}/${state.frontmatter.current_phase}`;

/**
 * The conformance suite every format's own tests run, in process: one `it` per promise, so a failing
 * one names itself. It plays `script` from a new debate to its end and checks what the runner,
 * files and every face rely on: the shape the registry checks, a new debate's frontmatter, prompts,
 * answers, commit markers, refusing a step applied twice, re-checking every committed state,
 * standing, determinism, reset and the report model.
 */
export function testFormat<F extends FrontmatterBase>(format: Format<F>, script: FormatScript<F>): void {
  describe(`format conformance: ${format.name}`, () => {
    let played: { steps: ScriptedStep<F>[]; final: DebateState<F> } | undefined;
    const play = () => {
      played ??= playScript(format, script);
      return played;
    };
    declaresItself(format);
    it("makes a new debate whose frontmatter it accepts, and that has not started", () => {
      const state = newState(format, script);
      const valid = format.validateFrontmatter(state.frontmatter);
      expect(valid.ok ? [] : valid.errors).toEqual([]);
      expect(format.checkCommitted(state)).toEqual([]);
      const standing = format.standing(state);
      expect(standing.complete).toBe(false);
      expect(standing.progress.done).toBe(0);
      expect(standing.winner).toBeUndefined();
    });
    it("plays its script to the end, every step moving the commit marker", () => {
      const { steps, final } = play();
      expect(steps.length).toBeGreaterThan(0);
      for (const { before, after } of steps) expect(marker(after)).not.toBe(marker(before));
      expect(format.standing(final).complete).toBe(true);
    });
    it("refuses a step applied a second time", () => {
      for (const { step, after, answers } of play().steps) {
        // Two advances in a row are two steps, not one applied twice.
        if (step.kind === "advance" && format.next(after).kind === "advance") continue;
        const again =
          step.kind === "advance"
            ? format.advance!(after, SCRIPT_NOW)
            : format.apply(after, answers, SCRIPT_NOW, {});
        expect(again.ok, `${step.kind} at ${marker(after)} applied twice`).toBe(false);
        if (!again.ok) for (const e of again.errors) expect(e.code).toMatch(STABLE_CODE);
      }
    });
    itChecksEveryState(format, play);
    itIsDeterministic(format, script, play);
    itRefusesGarbage(format, script);
    itResets(format, script, play);
    it("gives a report model of plain data when it has report()", () => {
      if (!format.report) return;
      const model = format.report(play().final);
      expect(JSON.parse(JSON.stringify(model))).toEqual(model);
    });
  });
}

/** The shape the registry checks and the declaration's own consistency. */
function declaresItself<F extends FrontmatterBase>(format: Format<F>): void {
  it(`has the shape the registry checks, at format spec version ${FORMAT_SPEC_VERSION}`, () => {
    const checked = checkFormat(format);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    expect(format.specVersion ?? 1).toBe(FORMAT_SPEC_VERSION);
  });
  it("names every seat, `new` seat and tournament side among its roles", () => {
    const roles = new Set(format.roles.map((r) => r.role));
    for (const seat of format.seats) expect(roles, `seat ${seat}`).toContain(seat);
    for (const seat of format.newOptions.seats) expect(roles, `new seat ${seat.role}`).toContain(seat.role);
    if (format.tournament)
      for (const side of [format.tournament.first, format.tournament.second, format.tournament.judge])
        expect(roles, `tournament side ${side}`).toContain(side);
    expect(format.unit.one.length * format.unit.many.length).toBeGreaterThan(0);
  });
}

/** Every committed state re-checks clean, holds only committed records, and stands sensibly. */
function itChecksEveryState<F extends FrontmatterBase>(
  format: Format<F>,
  play: () => { steps: ScriptedStep<F>[] },
): void {
  it("re-checks every committed state clean and counts progress forward", () => {
    let done = 0;
    for (const { after } of play().steps) {
      expect(format.checkCommitted(after), `checkCommitted at ${marker(after)}`).toEqual([]);
      expect(format.validateFrontmatter(after.frontmatter).ok, `frontmatter at ${marker(after)}`).toBe(true);
      for (const record of after.records ?? [])
        expect(format.isRecordCommitted(after.frontmatter, record.file), record.file).toBe(true);
      for (const derived of format.derivedFiles?.(after) ?? [])
        expect(derived.file.split("/"), derived.file).not.toContain("..");
      const standing = format.standing(after);
      expect(standing.progress.done).toBeGreaterThanOrEqual(done);
      done = standing.progress.done;
    }
  });
}

function itIsDeterministic<F extends FrontmatterBase>(
  format: Format<F>,
  script: FormatScript<F>,
  play: () => { final: DebateState<F> },
): void {
  it("is deterministic: the same answers give the same states", () => {
    expect(playScript(format, script).final).toEqual(play().final);
    const standing = format.standing(play().final);
    if (format.tournament && standing.winner !== undefined)
      expect([format.tournament.first, format.tournament.second, "tie"]).toContain(standing.winner);
  });
}

function itRefusesGarbage<F extends FrontmatterBase>(format: Format<F>, script: FormatScript<F>): void {
  it("refuses an answer that is not one, with stable codes", () => {
    const state = newState(format, script);
    const step = format.next(state);
    if (step.kind !== "ask") return;
    for (const ask of step.asks) {
      const parsed = format.parseAnswer(state, ask.role, "I would rather not answer.");
      expect(parsed.ok, `${ask.role} accepted prose`).toBe(false);
      if (!parsed.ok) for (const e of parsed.errors) expect(e.code).toMatch(STABLE_CODE);
    }
  });
}

function itResets<F extends FrontmatterBase>(
  format: Format<F>,
  script: FormatScript<F>,
  play: () => { final: DebateState<F> },
): void {
  it("resets to its start and plays to the same end (or says why it cannot)", () => {
    const reset = format.reset;
    if (!reset.supported) {
      expect(reset.reason.trim()).not.toBe("");
      return;
    }
    const plan = unwrap(reset.plan(play().final, reset.start), "reset.plan");
    expect(format.checkCommitted(plan.state)).toEqual([]);
    expect(format.standing(plan.state).progress.done).toBe(0);
    expect(playScript(format, script, plan.state).final.frontmatter).toEqual(play().final.frontmatter);
  });
}
