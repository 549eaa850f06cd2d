// Builders shared by the tests: a fresh debate state, valid model answers, and the dialectic fixture.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ArgumentDraft, DebateFrontmatter, Judges, Judgment, ScoresFile } from "@debatekit/schema";
import { parseSideAnswer } from "../formats/formal/answers.js";
import { applyArguments } from "../formats/formal/machine.js";
import type { ArgumentRecord, DebateState, Motion } from "../types.js";

export const FIXTURE_DIR = join(
  import.meta.dirname,
  "../../../../../shared/fixtures/dialectic/halt-ai-development",
);

/** A fresh formal debate at exchange 0, awaiting arguments. */
export function freshState(overrides: Partial<DebateFrontmatter> = {}): DebateState {
  return {
    frontmatter: {
      debate_id: "test-debate",
      format: "formal",
      exchanges: 3,
      current_exchange: 0,
      current_phase: "awaiting_arguments",
      seats: {
        proposition: { adapter: "replay" },
        opposition: { adapter: "replay" },
        judge: { adapter: "replay" },
      },
      cumulative_scores: { proposition: { total: 0, count: 0 }, opposition: { total: 0, count: 0 } },
      ...overrides,
    },
    body: "# Motion\n\nThis house would test everything.\n",
    motion: { text: "This house would test everything." },
    arguments: [],
    scores: {},
  };
}

/** A valid Toulmin draft. */
export function draft(title: string, extra: Partial<ArgumentDraft> = {}): ArgumentDraft {
  return {
    title,
    claim: `${title} holds.`,
    grounds: [{ source: `Source for ${title}`, content: "It says so.", relevance: "It supports the claim." }],
    warrant: "Evidence of this kind supports claims of this kind.",
    ...extra,
  };
}

/** A model answer with the given drafts, as JSON text. */
export function answer(drafts: ArgumentDraft[]): string {
  return JSON.stringify({ arguments: drafts });
}

/** A zero-sum judgment of the given ids (alternating +s / -s). */
export function zeroSumJudgment(ids: string[], magnitude = 0.2): Judgment {
  const props = ids.filter((id) => id.startsWith("prop"));
  const opps = ids.filter((id) => id.startsWith("opp"));
  return {
    scores: [
      ...props.map((id) => ({ argument_id: id, score: magnitude, reasoning: `good ${id}` })),
      ...opps.map((id) => ({ argument_id: id, score: -magnitude, reasoning: `weaker ${id}` })),
    ],
  };
}

function splitJsonFrontmatter(text: string): { frontmatter: unknown; body: string } {
  const end = text.indexOf("\n}\n");
  return { frontmatter: JSON.parse(text.slice(0, end + 2)), body: text.slice(end + 3).replace(/^\n+/, "") };
}

function parseMotion(body: string): Motion {
  const section = (name: string): string | undefined => {
    const match = new RegExp(`^#{1,2} ${name}\\n([\\s\\S]*?)(?=^#{1,2} |$(?![\\s\\S]))`, "m").exec(body);
    return match?.[1]?.trim();
  };
  const motion: Motion = { text: section("Motion") ?? "" };
  const definitions = section("Definitions");
  const scope = section("Scope");
  if (definitions) motion.definitions = definitions;
  if (scope) motion.scope = scope;
  return motion;
}

/** The dialectic fixture folder read into a state (tests may read files; core itself never does). */
export function fixtureState(): DebateState {
  const debate = splitJsonFrontmatter(readFileSync(join(FIXTURE_DIR, "debate.md"), "utf8"));
  const args: ArgumentRecord[] = readdirSync(join(FIXTURE_DIR, "arguments"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => {
      const parsed = splitJsonFrontmatter(readFileSync(join(FIXTURE_DIR, "arguments", f), "utf8"));
      return { frontmatter: parsed.frontmatter as ArgumentRecord["frontmatter"], body: parsed.body };
    })
    .sort(
      (a, b) =>
        a.frontmatter.exchange - b.frontmatter.exchange || a.frontmatter.id.localeCompare(b.frontmatter.id),
    );
  return {
    frontmatter: debate.frontmatter as DebateFrontmatter,
    body: debate.body,
    motion: parseMotion(debate.body),
    arguments: args,
    scores: JSON.parse(readFileSync(join(FIXTURE_DIR, "scores.json"), "utf8")) as ScoresFile,
  };
}

/** Titles of the panel debate's opening arguments, by side. */
export const PANEL_TITLES = { prop: ["Tea", "Coffee", "Cocoa"], opp: ["Water", "Juice", "Milk"] } as const;

/** A formal debate with a judges panel, its opening argued, awaiting the panel's judgment. */
export function panelState(
  judges: Judges,
  debateId = "panel-debate",
  seats?: DebateFrontmatter["seats"],
): DebateState {
  const start = freshState({
    debate_id: debateId,
    seats: seats ?? { proposition: { adapter: "claude" }, opposition: { adapter: "gemini" } },
    judges,
  });
  const prop = parseSideAnswer(start, "proposition", answer(PANEL_TITLES.prop.map((t) => draft(t))));
  const opp = parseSideAnswer(start, "opposition", answer(PANEL_TITLES.opp.map((t) => draft(t))));
  if (!prop.ok || !opp.ok) throw new Error("bad drafts");
  const next = applyArguments(start, 0, { proposition: prop.value, opposition: opp.value });
  if (!next.ok) throw new Error(JSON.stringify(next.errors));
  return next.value;
}
