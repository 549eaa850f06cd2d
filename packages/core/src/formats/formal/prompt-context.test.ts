import { describe, expect, it } from "vitest";
import { draft, freshState } from "../../test-helpers/states.js";
import type { ArgumentRecord, DebateState } from "../../types.js";
import { applyArguments, applyJudgment } from "./machine.js";
import { buildPrompt } from "./prompt.js";
import { renderArgument } from "./render.js";
import { recordJudgment } from "./scoring.js";

const NOW = "2026-11-21T12:00:00Z";
const must = <T>(r: { ok: true; value: T } | { ok: false; errors: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};
const pad = (n: number) => String(n).padStart(3, "0");
const idOf = (side: "prop" | "opp", e: number, i = 0) =>
  e === 0 ? `${side}_000${"abc"[i]}` : `${side}_${pad(e)}`;

/** What only an argument's full text carries (the compact entry has id, side, title and claim). */
const fullMark = (a: ArgumentRecord) => `Source for ${a.frontmatter.title}`;

/**
 * Every prompt of a formal debate of `exchanges` exchanges with context window `window`: each
 * rebuttal attacks the other side's last two exchanges and defends its own of two exchanges back,
 * each judgment rescores arguments of the two exchanges before (so scores keep changing).
 */
function debate(exchanges: number, window: number) {
  let s: DebateState = freshState({ exchanges });
  s = { ...s, frontmatter: { ...s.frontmatter, context: { window } } };
  const prompts: Array<{ role: string; exchange: number; text: string; state: DebateState }> = [];
  const ask = (role: "proposition" | "opposition" | "judge") =>
    prompts.push({ role, exchange: s.frontmatter.current_exchange, text: buildPrompt(s, role), state: s });
  for (let e = 0; e < exchanges; e++) {
    ask("proposition");
    ask("opposition");
    const side = (code: "prop" | "opp") => {
      const other = code === "prop" ? "opp" : "prop";
      if (e === 0)
        return [0, 1, 2].map((i) =>
          renderArgument(draft(`${code} ${pad(e)}${"abc"[i]}`), {
            id: idOf(code, 0, i),
            side: code,
            exchange: 0,
          }),
        );
      const attacks = [e - 1, e - 2]
        .filter((x) => x >= 0)
        .map((x) => ({
          target_id: idOf(other, x),
          attack_type: "claim_attack" as const,
          content: `against ${idOf(other, x)}`,
        }));
      const defends =
        e >= 2
          ? [{ target_id: idOf(code, e - 2), defense_type: "reinforce" as const, content: "still holds" }]
          : [];
      return [
        renderArgument(draft(`${code} ${pad(e)}`, { attacks, defends }), {
          id: idOf(code, e),
          side: code,
          exchange: e,
        }),
      ];
    };
    s = must(applyArguments(s, e, { proposition: side("prop"), opposition: side("opp") }));
    ask("judge");
    const current = s.arguments.filter((a) => a.frontmatter.exchange === e);
    const rescores = [e - 1, e - 2]
      .filter((x) => x >= 0)
      .map((x) => {
        const id = idOf(x % 2 === 0 ? "prop" : "opp", x);
        const old = s.scores[id]!.current_score;
        return {
          argument_id: id,
          old_score: old,
          new_score: Math.round((old > 0 ? old - 0.05 : old + 0.05) * 100) / 100,
          reasoning: "moved",
        };
      });
    const scores = current.map((a) => ({
      argument_id: a.frontmatter.id,
      score: a.frontmatter.side === "prop" ? 0.1 : -0.1,
      reasoning: "r",
    }));
    s = must(applyJudgment(s, e, { scores, rescores }, NOW));
  }
  return prompts;
}

/** The text of a prompt's `heading` section, up to the next top-level heading. */
function section(prompt: string, heading: string): string {
  const start = prompt.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = prompt.indexOf("\n# ", start + heading.length + 1);
  return prompt.slice(start, end < 0 ? undefined : end);
}

/**
 * Every argument's score as a reader of the history's judgment log finds it: the last value a
 * `Judged:` line (`id score`) or its `rescored:` part (`id old -> new`) gives it.
 */
function loggedScores(history: string): Map<string, number> {
  const scores = new Map<string, number>();
  for (const line of history.split("\n").filter((l) => l.startsWith("Judged: "))) {
    const [judged, rescored] = line.slice("Judged: ".length).split("; rescored: ");
    for (const entry of judged!.split(", ")) {
      const [id, score] = entry.split(" ");
      scores.set(id!, Number(score));
    }
    for (const entry of rescored?.split(", ") ?? []) {
      const m = /^(\S+) (-?[\d.]+) -> (-?[\d.]+)$/.exec(entry);
      if (!m) throw new Error(`unreadable rescore ${entry}`);
      scores.set(m[1]!, Number(m[3]));
    }
  }
  return scores;
}

describe("bounded, cache-friendly formal prompts", () => {
  for (const window of [1, 2, 4, 7]) {
    const prompts = debate(16, window);

    it(`window ${window}: the judge sees every id it may rescore with its current score`, () => {
      for (const p of prompts.filter((x) => x.role === "judge")) {
        const history = section(p.text, "# The debate so far");
        const logged = loggedScores(history);
        const earlier = p.state.arguments.filter((a) => a.frontmatter.exchange < p.exchange);
        for (const a of earlier) {
          const id = a.frontmatter.id;
          expect(logged.get(id)).toBe(p.state.scores[id]!.current_score);
        }
        expect(logged.size).toBe(earlier.length);
        // ...and the ones this exchange attacks or defends (what it is likeliest to rescore) are
        // listed again with their current score in the short block after the history.
        const scores = section(p.text, "# Your task");
        const targets = new Set(
          p.state.arguments
            .filter((a) => a.frontmatter.exchange === p.exchange)
            .flatMap((a) => [...(a.frontmatter.attacks ?? []), ...(a.frontmatter.defends ?? [])])
            .map((t) => t.target_id),
        );
        for (const id of targets)
          expect(scores).toMatch(new RegExp(`[ :,]${id} ${p.state.scores[id]!.current_score}(,|\\.|\\n|$)`));
        // ...and every one of those ids has its title and claim in the history.
        for (const a of earlier) expect(history).toContain(`${a.frontmatter.title}`);
      }
    });

    it(`window ${window}: every turn gets the full text of what it answers`, () => {
      for (const p of prompts) {
        const args = p.state.arguments;
        if (p.role === "judge") {
          const current = args.filter((a) => a.frontmatter.exchange === p.exchange);
          const targets = new Set(
            current.flatMap((a) =>
              [...(a.frontmatter.attacks ?? []), ...(a.frontmatter.defends ?? [])].map((t) => t.target_id),
            ),
          );
          for (const a of current) expect(p.text).toContain(fullMark(a));
          for (const a of args.filter((x) => targets.has(x.frontmatter.id)))
            expect(p.text).toContain(fullMark(a));
        } else if (p.exchange > 0) {
          const theirs = args.filter(
            (a) =>
              a.frontmatter.exchange === p.exchange - 1 &&
              a.frontmatter.side !== (p.role === "proposition" ? "prop" : "opp"),
          );
          expect(theirs.length).toBeGreaterThan(0);
          for (const a of theirs) expect(p.text).toContain(fullMark(a));
        }
      }
    });

    it(`window ${window}: a debater is never sent its own arguments in full`, () => {
      for (const p of prompts.filter((x) => x.role !== "judge")) {
        const own = p.role === "proposition" ? "prop" : "opp";
        for (const a of p.state.arguments.filter((x) => x.frontmatter.side === own))
          expect(p.text, `${p.role} at ${p.exchange}`).not.toContain(fullMark(a));
      }
    });

    it(`window ${window}: the judge's history holds in full what the arguments it scores reach (two exchanges back), so nothing is sent again after it`, () => {
      for (const p of prompts.filter((x) => x.role === "judge" && x.exchange > 0)) {
        // No argument is sent a second time after the history because it is compact there.
        expect(p.text, `judge at ${p.exchange}`).not.toContain("compact in the debate above, in full");
        expect(section(p.text, "# The debate so far")).toContain(fullMark(p.state.arguments.at(-1)!));
      }
    });

    it(`window ${window}: a debater's history is every earlier argument compact and only grows; the other side's latest ${window} exchange(s) follow it in full`, () => {
      const seat = prompts.filter((x) => x.role === "proposition" && x.exchange > 0);
      for (const p of seat) {
        const history = section(p.text, "# The debate so far");
        const latest = section(p.text, "# The opposition's latest argument, in full");
        const lastOpp = Math.max(
          ...p.state.arguments.filter((a) => a.frontmatter.side === "opp").map((a) => a.frontmatter.exchange),
        );
        for (const a of p.state.arguments) {
          expect(history).toContain(`- ${a.frontmatter.id}: ${a.frontmatter.title}.`);
          expect(history.includes(fullMark(a))).toBe(false);
          const inFull = a.frontmatter.side === "opp" && a.frontmatter.exchange > lastOpp - window;
          expect(latest.includes(fullMark(a)), `${a.frontmatter.id} at ${p.exchange}`).toBe(inFull);
        }
      }
      for (let i = 1; i < seat.length; i++) {
        const [before, after] = [seat[i - 1]!, seat[i]!];
        // Everything up to the end of the history is a prefix of the seat's next prompt.
        const stable = before.text.slice(0, before.text.indexOf("\n# The opposition's latest argument"));
        expect(after.text.startsWith(stable)).toBe(true);
        expect(stable.length / after.text.length).toBeGreaterThan(0.5);
      }
    });
  }
});

describe("a prompt is a function of the state's content (per argument, exchange block, judgment line)", () => {
  // A clone shares no object with the state: the same content must give the same prompt.
  const fresh = (s: DebateState, role: "proposition" | "opposition" | "judge") =>
    buildPrompt(structuredClone(s), role);

  for (const window of [1, 3]) {
    it(`each prompt of a 12-exchange debate, window ${window}, equals the prompt of a clone`, () => {
      const prompts = debate(12, window);
      for (const p of prompts)
        expect(p.text, `${p.role} at ${p.exchange}`).toBe(
          fresh(p.state, p.role as "proposition" | "opposition" | "judge"),
        );
    });
  }

  it("follows a changed record, a replaced argument and an argument changed in place", () => {
    const prompts = debate(10, 2);
    const last = prompts.at(-1)!;
    const s = last.state;
    const before = buildPrompt(s, "judge");
    // scores.json edited: an early record (scored at exchange 2, rescored by 3 and 4) is a new object
    // with one score and no rescores (the arguments are the same objects).
    const rescored: DebateState = {
      ...s,
      scores: {
        ...s.scores,
        prop_002: {
          ...s.scores.prop_002!,
          current_score: 0.42,
          history: [{ score: 0.42, reasoning: "edited", scored_at: NOW }],
        },
      },
    };
    const afterScore = buildPrompt(rescored, "judge");
    expect(afterScore).not.toBe(before);
    expect(s.scores.prop_002!.history.map((h) => h.triggered_by)).toEqual([
      undefined,
      "exchange_3",
      "exchange_4",
    ]);
    expect(afterScore).toContain("prop_002 0.42");
    expect(afterScore).not.toMatch(/prop_002 [-\d.]+ ->/);
    expect(afterScore).toBe(fresh(rescored, "judge"));
    // An early argument replaced by a changed copy.
    const i = s.arguments.findIndex((a) => a.frontmatter.id === "opp_002");
    const replaced: DebateState = {
      ...s,
      arguments: s.arguments.map((a, j) =>
        j === i ? { ...a, frontmatter: { ...a.frontmatter, title: "A retitled argument" } } : a,
      ),
    };
    const afterReplace = buildPrompt(replaced, "judge");
    expect(afterReplace).toContain("opp_002: A retitled argument.");
    expect(afterReplace).toBe(fresh(replaced, "judge"));
    // An argument object changed in place, in a new state.
    const copy = structuredClone(s);
    buildPrompt(copy, "judge");
    copy.arguments.find((a) => a.frontmatter.id === "prop_003")!.frontmatter.claim = "An edited claim.";
    const afterEdit = buildPrompt({ ...copy }, "judge");
    expect(afterEdit).toContain("prop_003: ");
    expect(afterEdit).toContain("An edited claim.");
    expect(afterEdit).toBe(fresh({ ...copy }, "judge"));
    // The same scores object with arguments added that already have a score (scores.json edited
    // ahead of the debate): the judgment log is built again, not reused.
    const debaters = prompts.find((p) => p.role === "proposition" && p.exchange === 9)!.state;
    const judge = prompts.find((p) => p.role === "judge" && p.exchange === 9)!.state;
    expect(judge.scores).toBe(debaters.scores);
    const ahead = {
      ...debaters.scores,
      prop_009: { current_score: 0.3, history: [{ score: 0.3, reasoning: "early", scored_at: NOW }] },
    };
    expect(buildPrompt({ ...debaters, scores: ahead }, "proposition")).not.toContain("prop_009 0.3");
    const judged = buildPrompt({ ...judge, scores: ahead }, "judge");
    expect(judged).toContain("prop_009 0.3");
    expect(judged).toBe(fresh({ ...judge, scores: ahead }, "judge"));
    // And back: the original state still gets its own prompt.
    expect(buildPrompt(s, "judge")).toBe(before);
  });

  it("logs a judgment that only rescores, and one made on top of it", () => {
    const prompts = debate(10, 2);
    const judge = prompts.find((p) => p.role === "judge" && p.exchange === 9)!.state;
    // A judgment that only rescores (its exchange's arguments get no score): that exchange's line
    // has a rescored part alone.
    const old = judge.scores.prop_007!.current_score;
    const rescoreOnly = {
      ...judge,
      scores: recordJudgment(
        judge.scores,
        9,
        {
          scores: [],
          rescores: [{ argument_id: "prop_007", old_score: old, new_score: 0.5, reasoning: "r" }],
        },
        NOW,
      ),
    };
    const onlyRescored = buildPrompt(rescoreOnly, "judge");
    expect(onlyRescored).toContain(`\n\nrescored: prop_007 ${old} -> 0.5`);
    expect(onlyRescored).toBe(fresh(rescoreOnly, "judge"));
    // Then a judgment of exchange 9 on top of it: first scores placed at 9, a rescore by 9 moved.
    const next = {
      ...rescoreOnly,
      scores: recordJudgment(
        rescoreOnly.scores,
        9,
        {
          scores: [
            { argument_id: "prop_009", score: 0.2, reasoning: "r" },
            { argument_id: "opp_009", score: -0.2, reasoning: "r" },
          ],
          rescores: [{ argument_id: "prop_007", old_score: 0.5, new_score: 0.4, reasoning: "r" }],
        },
        NOW,
      ),
    };
    const both = buildPrompt(next, "judge");
    expect(both).toContain(
      `Judged: opp_009 -0.2, prop_009 0.2; rescored: prop_007 ${old} -> 0.5, prop_007 0.5 -> 0.4`,
    );
    expect(both).toBe(fresh(next, "judge"));
  });
});
