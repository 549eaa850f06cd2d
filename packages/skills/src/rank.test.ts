import fc from "fast-check";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import {
  BM25_PARAMS,
  bm25,
  corpusOf,
  FIELD_BOOSTS,
  fieldTexts,
  headingsOf,
  queryOf,
  rankSkill,
  termsOf,
} from "./rank.js";
import { skillOf } from "./test-helpers/skill.js";

describe("termsOf", () => {
  it("normalizes, drops stop words and single letters, and keeps each word's Porter stem", () => {
    expect(termsOf("This house would store the Session TOKENS in cookies; the company's café")).toEqual([
      { stem: "store", word: "store" },
      { stem: "session", word: "session" },
      { stem: "token", word: "tokens" },
      { stem: "cooki", word: "cookies" },
      { stem: "compani", word: "company" },
      { stem: "cafe", word: "cafe" },
    ]);
  });
  it("leaves words of other scripts as they are", () => {
    expect(termsOf("安全 Ελλάδα").map((t) => t.stem)).toEqual(["安全", "ελλαδα"]);
  });
});

describe("headingsOf", () => {
  it("reads ATX headings and bold-led lines, not what is inside code fences", () => {
    const md = [
      "# Title",
      "Intro with **bold** inside.",
      "**Checklist for secrets**",
      "**Qualify the claim**: and the rest of the line.",
      "```md",
      "## not a heading",
      "```",
      "### Closing hashes ###",
    ].join("\n");
    expect(headingsOf(md)).toEqual(["Title", "Checklist for secrets", "Qualify the claim", "Closing hashes"]);
  });
});

describe("bm25", () => {
  it("is minisearch's BM25+ (k 1.2, b 0.7, d 0.5), checked by hand", () => {
    expect(BM25_PARAMS).toEqual({ k: 1.2, b: 0.7, d: 0.5 });
    // idf = ln(1 + (4 - 1 + 0.5) / (1 + 0.5)) = ln(10/3); tf part = 0.5 + 2 * 2.2 / (2 + 1.2 * (0.3 + 0.7 * 6/4))
    const expected = Math.log(10 / 3) * (0.5 + 4.4 / (2 + 1.2 * (0.3 + 0.7 * 1.5)));
    expect(bm25(2, 1, 4, 6, 4)).toBeCloseTo(expected, 12);
  });
});

describe("rankSkill", () => {
  const security = skillOf(
    "security",
    {
      triggers: ["security", "secrets"],
      description: "Where session tokens and cookies are kept, and who can read them.",
    },
    "**Threat model**\n\nText.\n\n**Secrets and tokens**\n\nMore text.",
  );
  const cost = skillOf("cost", { triggers: ["cost"], description: "Bills, licences and effort." });
  const skills = [security, cost];

  it("finds a skill by its description and headings when no trigger is in the text, and says how", () => {
    const ranked = rankSkill(
      security,
      queryOf("Keep the tokens in cookies, not tokens in storage"),
      corpusOf(skills),
    );
    expect(ranked.terms).toBe(2);
    expect(ranked.hits.map((h) => [h.stem, h.words, h.field, h.termFreq, h.docFreq])).toEqual([
      ["cooki", ["cookies"], "description", 1, 1],
      ["token", ["tokens"], "description", 1, 1],
      ["token", ["tokens"], "headings", 1, 1],
    ]);
    expect(ranked.sum).toBeCloseTo(
      ranked.hits.reduce((s, h) => s + h.weight, 0),
      12,
    );
    expect(ranked.score).toBeCloseTo(ranked.sum * 2, 12);
    expect(rankSkill(cost, queryOf("Keep the tokens in cookies"), corpusOf(skills)).score).toBe(0);
  });

  it("gives the same scores as minisearch 7 for the same fields, boosts and terms", () => {
    const WORDS = [
      "token",
      "cookie",
      "cost",
      "bill",
      "latency",
      "test",
      "tests",
      "cache",
      "secret",
      "review",
    ];
    const doc = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(" "));
    const input = fc.record({
      docs: fc.array(fc.record({ triggers: doc, description: doc, headings: doc }), {
        minLength: 1,
        maxLength: 6,
      }),
      query: fc.array(fc.constantFrom(...WORDS, "unknown"), { minLength: 1, maxLength: 6 }),
    });
    fc.assert(
      fc.property(input, ({ docs, query }) => {
        const skills = docs.map((d, i) =>
          skillOf(
            `s${i}`,
            {
              triggers: d.triggers === "" ? ["*"] : d.triggers.split(" "),
              description: d.description || "x",
            },
            d.headings === "" ? "body" : `**${d.headings}**\n\nbody`,
          ),
        );
        const stems = (text: string) => termsOf(text).map((t) => t.stem);
        const search = new MiniSearch({
          fields: Object.keys(FIELD_BOOSTS),
          tokenize: (text) => (text === "" ? [] : text.split(" ")),
          processTerm: (term) => term,
        });
        search.addAll(
          skills.map((skill, id) => {
            const texts = fieldTexts(skill);
            return {
              id,
              triggers: stems(texts.triggers).join(" "),
              description: stems(texts.description).join(" "),
              headings: stems(texts.headings).join(" "),
            };
          }),
        );
        const terms = queryOf(query.join(" "));
        const theirs = new Map(
          search
            .search([...terms.keys()].join(" "), { boost: { ...FIELD_BOOSTS }, bm25: { ...BM25_PARAMS } })
            .map((r) => [r.id as number, r.score]),
        );
        const corpus = corpusOf(skills);
        skills.forEach((skill, id) => {
          const ours = rankSkill(skill, terms, corpus).score;
          expect(ours).toBeCloseTo(theirs.get(id) ?? 0, 9);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("is deterministic: the same skills in another order give the same scores and hits", () => {
    const q = queryOf("security of session tokens and the cost of cookies");
    const a = rankSkill(security, q, corpusOf([security, cost]));
    const b = rankSkill(security, q, corpusOf([cost, security]));
    expect(b).toEqual(a);
  });
});
