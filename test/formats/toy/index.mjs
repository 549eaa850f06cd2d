// @ts-check
// A toy debate format that lives outside debatekit: pro and con take turns making one claim each, then a
// judge picks a side. It uses only @debatekit/core's public API and is registered through a config
// file's `formats`, which proves a format needs no edit to any debatekit package.
import { readFileSync } from "node:fs";
import { defineFormat, extractJson, fail, fillTemplate, ok, ruleError } from "@debatekit/core";
import { Ajv } from "ajv";

/** @typedef {"pro" | "con"} Side */
/** @typedef {"awaiting_pro" | "awaiting_con" | "awaiting_judgment" | "complete"} Phase */
/**
 * @typedef {{ debate_id: string; format: "toy"; turns: number; current_exchange: number; current_phase: Phase;
 *   paused?: boolean; seats?: Record<string, import("@debatekit/schema").SeatConfig>; winner?: Side | "tie";
 *   created_at?: string }} ToyFrontmatter
 */
/** @typedef {import("@debatekit/core").DebateState<ToyFrontmatter>} ToyState */
/** @typedef {{ turn: number; role: Side; claim: string }} Turn */
/** @typedef {{ winner: Side | "tie"; reason: string }} Judgment */

const here = new URL(".", import.meta.url);
const ajv = new Ajv({ allErrors: true });
ajv.addSchema(JSON.parse(readFileSync(new URL("toy.schema.json", here), "utf8")));

/**
 * A validator of one of the schema's definitions, as debatekit's validators return (`path` dotted).
 * @param {string} name
 * @returns {(data: unknown) => import("@debatekit/schema").ValidationResult<any>}
 */
function validator(name) {
  const validate = ajv.getSchema(`toy.schema.json#/definitions/${name}`);
  if (!validate) throw new Error(`toy.schema.json has no definition ${name}`);
  return (data) =>
    validate(data)
      ? { ok: true, value: data }
      : {
          ok: false,
          errors: (validate.errors ?? []).map((e) => ({
            path: e.instancePath.slice(1).replaceAll("/", "."),
            message: e.message ?? "is not valid",
            keyword: e.keyword,
          })),
        };
}

const validateFrontmatter = validator("frontmatter");
const validateClaim = validator("claim");
const validateJudgment = validator("judgment");
const validateTurn = validator("turn");

/** @param {"pro" | "con" | "judge"} role */
function template(role) {
  const body = readFileSync(new URL(`agents/${role}.md`, here), "utf8");
  const placeholders = [...new Set([...body.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? ""))];
  /** @type {import("@debatekit/core").AgentTemplate} */
  const agent = {
    definition: {
      name: `toy-${role}`,
      role: role === "judge" ? "judge" : "debater",
      task: role === "judge" ? "verdict" : "opening",
      description: `the toy format's ${role}`,
      placeholders,
    },
    body,
  };
  return agent;
}
const TEMPLATES = { pro: template("pro"), con: template("con"), judge: template("judge") };

/** The seat that answers in each phase that asks one. */
const ROLE_OF_PHASE = /** @type {const} */ ({
  awaiting_pro: "pro",
  awaiting_con: "con",
  awaiting_judgment: "judge",
});
/** Where a step sits in a turn: its records are committed once the marker is past it. */
const POSITION = { awaiting_pro: 1, awaiting_con: 2, awaiting_judgment: 3, complete: 4 };
const MAX_CLAIM = 300;

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
const turnFile = (/** @type {number} */ turn, /** @type {Side} */ role) => `turns/t${pad(turn)}-${role}.md`;
const TURN_FILE = /^turns\/t0([1-3])-(pro|con)\.md$/;
const JUDGMENT_FILE = "judgment.md";

/** @param {{ frontmatter: unknown }} state @returns {ToyFrontmatter} */
const fmOf = (state) => /** @type {ToyFrontmatter} */ (state.frontmatter);

/** Every committed turn with its file, in the order they were made. @param {ToyState} state @returns {Array<Turn & { file: string }>} */
function turnsOf(state) {
  return (state.records ?? [])
    .filter((r) => TURN_FILE.test(r.file))
    .map((r) => ({ .../** @type {Turn} */ (/** @type {unknown} */ (r.frontmatter)), file: r.file }))
    .sort((a, b) => a.turn - b.turn || (a.role === "pro" ? -1 : 1));
}

/** @param {ToyState} state @returns {Judgment | undefined} */
function judgmentOf(state) {
  const record = (state.records ?? []).find((r) => r.file === JUDGMENT_FILE);
  return /** @type {Judgment | undefined} */ (/** @type {unknown} */ (record?.frontmatter));
}

/**
 * The rules a claim must pass, given the claims made before it (the answer check and the committed
 * re-check both use them).
 * @param {string} claim @param {string[]} earlier @param {string} path
 */
function claimErrors(claim, earlier, path) {
  const text = claim.trim();
  if (text === "") return [ruleError("TOY_CLAIM_EMPTY", path, "expected a claim, found an empty string")];
  if (text.length > MAX_CLAIM)
    return [
      ruleError("TOY_CLAIM_TOO_LONG", path, `expected at most ${MAX_CLAIM} characters, found ${text.length}`),
    ];
  const key = text.toLowerCase();
  if (earlier.some((e) => e.trim().toLowerCase() === key))
    return [ruleError("TOY_CLAIM_REPEATED", path, `expected a new claim, found one made already: "${text}"`)];
  return [];
}

/**
 * Parses a JSON answer against one of the schema's shapes.
 * @param {string} text @param {(data: unknown) => import("@debatekit/schema").ValidationResult<any>} validate
 */
function parseJson(text, validate) {
  const json = extractJson(text);
  if (!json.ok) return json;
  const checked = validate(json.value);
  if (!checked.ok)
    return fail(...checked.errors.map((e) => ruleError("TOY_ANSWER_SCHEMA", e.path, e.message)));
  return ok(checked.value);
}

/** @param {ToyFrontmatter} fm @param {number} turn @param {Phase} phase @param {Partial<ToyFrontmatter>} [extra] */
const moved = (fm, turn, phase, extra = {}) => ({
  ...fm,
  ...extra,
  current_exchange: turn,
  current_phase: phase,
});

/** @param {ToyState} state */
function history(state) {
  const lines = turnsOf(state).map((t) => `- turn ${t.turn}, ${t.role}: ${t.claim}`);
  return lines.length > 0 ? lines.join("\n") : "(none yet)";
}

/** @param {Side | "tie"} winner */
const headline = (winner) => (winner === "tie" ? "a tie" : `${winner} wins`);

/** The toy format: `turns` turns of pro then con, one claim each, then a judge's pick. */
export const format = defineFormat(
  /** @type {import("@debatekit/core").Format<ToyFrontmatter>} */ ({
    name: "toy",
    roles: [
      { role: "pro", kind: "debater", description: "argues for the motion" },
      { role: "con", kind: "debater", description: "argues against it" },
      { role: "judge", kind: "judge", description: "picks pro, con or a tie" },
    ],
    unit: { one: "turn", many: "turns" },
    tournament: { first: "pro", second: "con", judge: "judge" },
    reset: {
      supported: true,
      start: 1,
      plan(state, to) {
        const fm = fmOf(state);
        if (!Number.isInteger(to) || to < 1 || to > fm.current_exchange)
          return fail(
            ruleError(
              "RESET_OUT_OF_RANGE",
              "to",
              `expected a turn from 1 to ${fm.current_exchange}, found ${to}`,
            ),
          );
        const { winner: _winner, ...rest } = fm;
        const records = (state.records ?? []).filter((r) => Number(TURN_FILE.exec(r.file)?.[1] ?? 99) < to);
        return ok({
          state: { ...state, frontmatter: moved(rest, to, "awaiting_pro"), records },
          writeScores: false,
        });
      },
    },
    seats: ["pro", "con", "judge"],
    phases: { awaiting_pro: "1-pro", awaiting_con: "2-con", awaiting_judgment: "3-judgment" },
    folders: ["turns"],
    records: [
      { dir: "turns", name: /^t0[1-3]-(pro|con)\.md$/, validate: validateTurn },
      { dir: "", name: /^judgment\.md$/, validate: validateJudgment },
    ],
    validateFrontmatter,
    isRecordCommitted(fm, file) {
      if (file === JUDGMENT_FILE) return fm.current_phase === "complete";
      const m = TURN_FILE.exec(file);
      if (!m) return false;
      const at = Number(m[1]) * 10 + (m[2] === "pro" ? 1 : 2);
      return at < fm.current_exchange * 10 + POSITION[fm.current_phase];
    },
    seat: (state, role) => fmOf(state).seats?.[role],
    next(state) {
      const fm = fmOf(state);
      if (fm.current_phase === "complete")
        return { kind: "done", reason: "complete", message: `judgment: ${headline(fm.winner ?? "tie")}` };
      if (fm.paused)
        return {
          kind: "blocked",
          reason: "paused",
          message: "debate.md: `paused: true`; set it to false to continue",
        };
      if (!fm.seats)
        return { kind: "blocked", reason: "no_seats", message: "debate.md has no `seats` (pro, con, judge)" };
      const role = ROLE_OF_PHASE[fm.current_phase];
      const turn = fm.current_exchange;
      return {
        kind: "ask",
        exchange: turn,
        phase: fm.current_phase,
        mode: "sequential",
        asks: [{ role, task: role === "judge" ? "verdict" : turn === 1 ? "opening" : "rebuttal" }],
        opens: fm.current_phase === "awaiting_pro",
        completed: fm.current_phase === "awaiting_judgment" ? turn : turn - 1,
      };
    },
    prompt(state, role, options = {}) {
      const fm = fmOf(state);
      const agent = TEMPLATES[/** @type {"pro" | "con" | "judge"} */ (role)];
      if (!agent) throw new Error(`the toy format has no seat ${role}`);
      const feedback = options.feedback?.length
        ? `# Your previous answer was rejected\n\n${options.feedback.map((f) => `- ${f}`).join("\n")}\n\nAnswer again, fixing every point above.`
        : "";
      return fillTemplate(agent, {
        motion: state.motion.text.trim(),
        turn: String(fm.current_exchange),
        turns: String(fm.turns),
        history: history(state),
        skills: options.skills?.trim() ?? "",
        feedback,
      });
    },
    skillTask: (state, role) =>
      role === "judge" ? "verdict" : fmOf(state).current_exchange === 1 ? "opening" : "rebuttal",
    parseAnswer(state, role, text) {
      const fm = fmOf(state);
      const wanted = fm.current_phase === "complete" ? undefined : ROLE_OF_PHASE[fm.current_phase];
      if (role !== wanted)
        return fail(
          ruleError(
            "DEBATE_PHASE_MISMATCH",
            "current_phase",
            `expected the ${wanted ?? "nobody"} to answer in ${fm.current_phase} at turn ${fm.current_exchange}, not the ${role}`,
          ),
        );
      if (role === "judge") return parseJson(text, validateJudgment);
      const answer = parseJson(text, validateClaim);
      if (!answer.ok) return answer;
      const claim = /** @type {{ claim: string }} */ (answer.value).claim;
      const errors = claimErrors(
        claim,
        turnsOf(state).map((t) => t.claim),
        "claim",
      );
      return errors.length > 0
        ? fail(...errors)
        : ok({ turn: fm.current_exchange, role, claim: claim.trim() });
    },
    apply(state, answers) {
      const fm = fmOf(state);
      const role = fm.current_phase === "complete" ? undefined : ROLE_OF_PHASE[fm.current_phase];
      if (!role || !(role in answers))
        return fail(
          ruleError(
            "DEBATE_PHASE_MISMATCH",
            "current_phase",
            `expected an answer of the ${role ?? "nobody"} in ${fm.current_phase}`,
          ),
        );
      const turn = fm.current_exchange;
      const answer = /** @type {Record<string, unknown>} */ (answers[role]);
      const file = role === "judge" ? JUDGMENT_FILE : turnFile(turn, role);
      if ((state.records ?? []).some((r) => r.file === file))
        return fail(ruleError("RECORD_EXISTS", file, `expected a new ${file}, found it committed already`));
      let next;
      let body;
      if (role === "judge") {
        const judgment = /** @type {Judgment} */ (/** @type {unknown} */ (answer));
        next = moved(fm, turn, "complete", { winner: judgment.winner });
        body = `# Judgment\n\n${headline(judgment.winner)}: ${judgment.reason}\n`;
      } else {
        next =
          role === "pro"
            ? moved(fm, turn, "awaiting_con")
            : turn < fm.turns
              ? moved(fm, turn + 1, "awaiting_pro")
              : moved(fm, turn, "awaiting_judgment");
        body = `# Turn ${turn}, ${role}\n\n${/** @type {Turn} */ (/** @type {unknown} */ (answer)).claim}\n`;
      }
      const records = [...(state.records ?? []), { file, frontmatter: answer, body }].sort((a, b) =>
        a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
      );
      return ok({ ...state, frontmatter: next, records });
    },
    checkCommitted(state) {
      const fm = fmOf(state);
      /** @type {import("@debatekit/core").RuleError[]} */
      const errors = [];
      /** @type {string[]} */
      const earlier = [];
      for (const turn of turnsOf(state)) {
        const file = turn.file;
        if (file !== turnFile(turn.turn, turn.role))
          errors.push(
            ruleError(
              "TOY_TURN_MISPLACED",
              `${file}:turn`,
              `expected the turn and side its file name gives, found turn ${turn.turn} of ${turn.role}`,
            ),
          );
        errors.push(...claimErrors(turn.claim, earlier, `${file}:claim`));
        earlier.push(turn.claim);
      }
      const judgment = judgmentOf(state);
      if (judgment && judgment.winner !== fm.winner)
        errors.push(
          ruleError(
            "TOY_WINNER_MISMATCH",
            "debate.md:winner",
            `expected ${judgment.winner} as ${JUDGMENT_FILE} says, found ${fm.winner}`,
          ),
        );
      return errors;
    },
    standing(state) {
      const fm = fmOf(state);
      const winner = judgmentOf(state)?.winner;
      const complete = fm.current_phase === "complete";
      const done =
        complete || fm.current_phase === "awaiting_judgment" ? fm.current_exchange : fm.current_exchange - 1;
      return {
        phase: fm.current_phase,
        progress: { done, total: fm.turns, unit: "turn" },
        ...(winner
          ? {
              winner,
              headline: headline(winner),
              sides: {
                proposition: winner === "pro" ? "winner" : "-",
                opposition: winner === "con" ? "winner" : "-",
              },
            }
          : {}),
        complete,
      };
    },
    plannedCalls: (fm) => ({ pro: fm.turns, con: fm.turns, judge: 1 }),
    report(state) {
      const turns = turnsOf(state);
      const judgment = judgmentOf(state);
      /** @param {Side} role */
      const side = (role) => (role === "pro" ? "proposition" : "opposition");
      /** @param {Side} role */
      const points = (role) =>
        turns
          .filter((t) => t.role === role)
          .map((t, i) => ({ x: t.turn, label: `turn ${t.turn}`, y: i + 1 }));
      return {
        sideNames: { proposition: "pro", opposition: "con" },
        chart: {
          title: "Claims made",
          description: "How many claims each side had made after each turn.",
          xLabel: "turn",
          yLabel: "claims",
          yInteger: true,
          series: [
            { side: "proposition", name: "pro", points: points("pro") },
            { side: "opposition", name: "con", points: points("con") },
          ],
        },
        graph: {
          nodes: turns.map((t) => ({ id: `t${pad(t.turn)}-${t.role}`, side: side(t.role), title: t.claim })),
          edges: turns
            .filter((t) => t.role === "con")
            .map((t) => ({
              from: `t${pad(t.turn)}-con`,
              to: `t${pad(t.turn)}-pro`,
              kind: "attack",
              label: "answers",
            })),
        },
        strongest: [],
        weakest: [],
        turningPoints: [],
        judges: judgment ? [{ heading: "Judgment", judge: "judge", text: judgment.reason }] : [],
        verdict: {
          headline: judgment ? headline(judgment.winner) : "not judged yet",
          ...(judgment && judgment.winner !== "tie" ? { winner: side(judgment.winner) } : {}),
          details: judgment ? [{ label: "Reason", text: judgment.reason }] : [],
        },
        alerts: [],
        itemName: "claims",
      };
    },
    newOptions: {
      seats: [
        { role: "pro", description: "who argues for the motion (required)", required: true },
        { role: "con", description: "who argues against it (required)", required: true },
        { role: "judge", description: "who picks the winner (required)", required: true },
      ],
      length: { flag: "turns", description: "turns per side", default: 2, min: 1, max: 3 },
    },
    newDebate(init) {
      /** @type {Record<string, import("@debatekit/schema").SeatConfig>} */
      const seats = {};
      for (const role of ["pro", "con", "judge"]) {
        const adapter = init.seats[role];
        if (!adapter)
          return fail(ruleError("SEAT_MISSING", role, `the toy format needs --${role} <adapter>`));
        seats[role] = /** @type {import("@debatekit/schema").SeatConfig} */ ({
          adapter,
          ...init.seatDefaults,
        });
      }
      /** @type {ToyFrontmatter} */
      const frontmatter = {
        debate_id: init.slug,
        format: "toy",
        turns: init.length ?? 2,
        current_exchange: 1,
        current_phase: "awaiting_pro",
        seats,
        created_at: init.now,
      };
      return ok({ frontmatter, warnings: [] });
    },
  }),
);

export default format;
