import type { Role } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import {
  appliesToRole,
  CONCEPT_POINTS,
  matchSkills,
  POINTS_PER_WORD,
  RANK_THRESHOLD,
  STEM_SUPPORT,
  scoreSkills,
} from "./match.js";
import { normalizeText } from "./normalize.js";
import { skillOf } from "./test-helpers/skill.js";

const names = (text: string, skills: ReturnType<typeof skillOf>[], role = "judge", kinds: string[] = []) =>
  matchSkills(skills, { text, role, kinds }).map((m) => m.skill.name);

describe("normalizeText", () => {
  it("applies NFKC, full case folding and drops Latin diacritics", () => {
    expect(normalizeText("Ｃafé ﬁle STRASSE Straße ΟΔΟΣ")).toBe("cafe file strasse strasse οδοσ");
  });
  it("keeps Devanagari vowel signs (only U+0300..U+036F is dropped)", () => {
    expect(normalizeText("सुरक्षा")).toBe("सुरक्षा");
  });
});

describe("matchSkills", () => {
  const art = skillOf("art", { triggers: ["art"] });
  it("matches whole words only: no 'art' inside 'start'", () => {
    expect(names("We start the party", [art])).toEqual([]);
    expect(names("Modern ART matters.", [art])).toEqual(["art"]);
  });

  it("matches a phrase across spaces, newlines, hyphens, slashes and underscores", () => {
    const review = skillOf("review", { triggers: ["code review"] });
    for (const text of [
      "Code  Review",
      "code\nreview",
      "code-review",
      "code/review",
      "code_review",
      "CODE–REVIEW",
    ]) {
      expect(names(`We need ${text} now`, [review]), text).toEqual(["review"]);
    }
    expect(names("codereview", [review])).toEqual([]);
  });

  it("matches a trigger by Porter stems when not exactly, and says which words matched", () => {
    const review = skillOf("review", { triggers: ["code review"] });
    const [m] = scoreSkills([review], { text: "Ask a code reviewer; code reviewers agree", role: "judge" });
    expect(m?.hits).toEqual([
      { trigger: "code review", occurrences: 2, points: 21, stemmed: ["code reviewer", "code reviewers"] },
    ]);
    const migrate = skillOf("m", { triggers: ["migrate", "cost"] });
    const [both] = scoreSkills([migrate], { text: "Migrating costs more; migrate now", role: "judge" });
    // An exact occurrence wins over stems: "migrate" is exact (once), "cost" only by stem.
    expect(both?.hits).toEqual([
      { trigger: "cost", occurrences: 1, points: 10, stemmed: ["costs"] },
      { trigger: "migrate", occurrences: 1, points: 10 },
    ]);
    // Triggers with the same stems count once: the exact one.
    const plural = skillOf("p", { triggers: ["benchmarks", "benchmark"] });
    expect(scoreSkills([plural], { text: "the benchmark", role: "judge" })[0]?.hits).toEqual([
      { trigger: "benchmark", occurrences: 1, points: 10 },
    ]);
    expect(scoreSkills([plural], { text: "benchmarking", role: "judge" })[0]?.hits).toEqual([
      { trigger: "benchmarks", occurrences: 1, points: 10, stemmed: ["benchmarking"] },
    ]);
    expect(names("We start the party", [skillOf("art", { triggers: ["art"] })])).toEqual([]);
    expect(names("We write code. Reviewers come later.", [review])).toEqual([]);
  });

  it("does not continue a phrase across a sentence end, but does across a dot inside a word", () => {
    const review = skillOf("review", { triggers: ["code review"] });
    expect(names("We write code. Review comes later.", [review])).toEqual([]);
    const node = skillOf("node", { triggers: ["node.js"] });
    expect(names("Rewrite it in Node.js?", [node])).toEqual(["node"]);
  });

  it("is case-insensitive and diacritic-insensitive on both sides", () => {
    const naive = skillOf("naive", { triggers: ["Naïve Caching"] });
    expect(names("a NAIVE caching layer", [naive])).toEqual(["naive"]);
  });

  it("matches CJK triggers as substrings since those scripts have no spaces", () => {
    const sec = skillOf("sec", { triggers: ["安全"] });
    expect(names("这个系统的安全性如何", [sec])).toEqual(["sec"]);
  });

  it("filters by role: a skill applies to the roles and seat kinds it names", () => {
    const debaterOnly = skillOf("d", { triggers: ["*"], applicable_agents: ["debater"] });
    const judgeOnly = skillOf("j", { triggers: ["*"], applicable_agents: ["judge"] });
    const propOnly = skillOf("p", { triggers: ["*"], applicable_agents: ["proposition"] });
    const all = [debaterOnly, judgeOnly, propOnly];
    expect(names("x", all, "proposition", ["debater"])).toEqual(["d", "p"]);
    expect(names("x", all, "opposition", ["debater"])).toEqual(["d"]);
    expect(names("x", all, "judge", ["judge"])).toEqual(["j"]);
    // A format's own role names are not known here: only the kind the seat gives reaches it.
    expect(names("x", all, "pro", ["debater"])).toEqual(["d"]);
    expect(names("x", all, "proposition")).toEqual(["p"]);
    expect(names("x", all, "pro")).toEqual([]);
  });

  it("scores 10 points per phrase word plus 1 per extra occurrence (capped at 4); '*' is 10", () => {
    const s = skillOf("s", { triggers: ["*", "cache", "cache invalidation", "absent"] });
    const [m] = matchSkills([s], {
      text: "Cache invalidation is hard; cache, cache, cache, cache, cache everywhere.",
      role: "judge",
    });
    // cache: 6 occurrences -> 10 + min(5, 4) = 14; "cache invalidation": 20; "*": 10.
    expect(m?.hits).toEqual([
      { trigger: "cache invalidation", occurrences: 1, points: 20 },
      { trigger: "cache", occurrences: 6, points: 14 },
      { trigger: "*", occurrences: 0, points: 10 },
    ]);
    expect(m?.score).toBe(44);
  });

  it("ranks always-on skills first, then by score, then by name in code-point order, whatever the input order", () => {
    const b = skillOf("b", { triggers: ["cache"] });
    const a = skillOf("a", { triggers: ["cache"] });
    const top = skillOf("z", { triggers: ["cache", "latency"] });
    const text = "cache latency";
    expect(names(text, [b, top, a])).toEqual(["z", "a", "b"]);
    expect(names(text, [a, b, top])).toEqual(["z", "a", "b"]);
    const always = skillOf("y", { triggers: ["*"] });
    expect(names(text, [a, b, top, always])).toEqual(["y", "z", "a", "b"]);
  });

  it("selects a skill by the ranked match alone at RANK_THRESHOLD, ranked after trigger matches", () => {
    const sec = skillOf("sec", {
      triggers: ["security"],
      description: "Where session tokens, cookies, passwords and API keys are kept, and who can read them.",
    });
    const cost = skillOf("cost", { triggers: ["cost"], description: "Money and effort." });
    const text = "Keep session tokens, passwords and API keys in cookies; the cost is small";
    const all = scoreSkills([sec, cost], { text, role: "judge" });
    expect(all.map((m) => [m.skill.name, m.score, m.rankedOk])).toEqual([
      ["cost", 10, false],
      ["sec", 0, true],
    ]);
    expect(all[1]!.ranked.score).toBeGreaterThanOrEqual(RANK_THRESHOLD);
    expect(names(text, [sec, cost])).toEqual(["cost", "sec"]);
    // One or two description words stay below the threshold; scoreSkills still reports them.
    expect(names("Keep session tokens in cookies", [sec, cost])).toEqual([]);
    expect(names("Keep the cookies", [sec, cost])).toEqual([]);
    expect(scoreSkills([sec, cost], { text: "Keep the cookies", role: "judge" })[0]).toMatchObject({
      skill: { name: "sec" },
      rankedOk: false,
      hits: [],
    });
  });
});

describe("a trigger matched only by stem", () => {
  it("selects its skill only when the ranked match agrees (STEM_SUPPORT), an exact trigger always", () => {
    const cost = skillOf("cost", {
      triggers: ["hiring", "budget"],
      description: "Hiring, headcount, salaries and the budget of a team.",
    });
    const other = skillOf("other", { triggers: ["editor"], description: "Editors, keyboards and habits." });
    const weak = scoreSkills([cost, other], { text: "New hires should learn Vim", role: "judge" })[0]!;
    expect(weak.hits).toEqual([{ trigger: "hiring", occurrences: 1, points: 10, stemmed: ["hires"] }]);
    expect(weak.ranked.score).toBeLessThan(STEM_SUPPORT);
    expect(weak.selected).toBe(false);
    const text = "New hires cost headcount and salaries";
    const backed = scoreSkills([cost, other], { text, role: "judge" })[0]!;
    expect(backed.ranked.score).toBeGreaterThanOrEqual(STEM_SUPPORT);
    expect(backed.selected).toBe(true);
    expect(names("We are hiring", [cost, other])).toEqual(["cost"]);
  });
});

describe("a seat's kind", () => {
  it("gives a seat the skills written for its kind, and only those of its own role otherwise", () => {
    const skill = (applicable_agents: Role[]) =>
      ({ manifest: { applicable_agents } }) as unknown as Parameters<typeof appliesToRole>[0];
    expect(appliesToRole(skill(["debater"]), "proposer", ["debater"])).toBe(true);
    expect(appliesToRole(skill(["debater"]), "challenger", ["debater"])).toBe(true);
    expect(appliesToRole(skill(["debater"]), "challenger")).toBe(false);
    expect(appliesToRole(skill(["debater"]), "summarizer", ["summarizer"])).toBe(false);
    expect(appliesToRole(skill(["judge"]), "challenger", ["debater"])).toBe(false);
    expect(appliesToRole(skill(["summarizer"]), "summarizer")).toBe(true);
  });
});

describe("concepts", () => {
  const keys = skillOf("keys", {
    triggers: ["secret"],
    concepts: [
      { name: "key in a client", phrases: ["signing key", "rotate keys", "secret", "keystore"] },
      { name: "who gets in", phrases: ["impersonate", "keep up"] },
    ],
  });

  it("selects a skill no trigger names by a concept's phrase, compared by stem", () => {
    const [m] = scoreSkills([keys], { text: "The Android app ships its signing keys.", role: "judge" });
    expect(m).toMatchObject({ selected: true, score: CONCEPT_POINTS, hits: [] });
    expect(m!.concepts).toEqual([
      {
        concept: "key in a client",
        phrases: ["signing key"],
        words: ["signing keys"],
        points: CONCEPT_POINTS,
      },
    ]);
  });

  it("skips up to two stop words of the text between a phrase's words, never a content word or a sentence end", () => {
    expect(names("We should rotate all of the keys monthly", [keys])).toEqual([]);
    expect(names("We should rotate the keys monthly", [keys])).toEqual(["keys"]);
    expect(names("We rotate. Keys are fine", [keys])).toEqual([]);
    expect(names("We rotate old keys", [keys])).toEqual([]);
    // A phrase's own stop words must be there: "keep up" is not "keep".
    expect(names("We keep the logs", [keys])).toEqual([]);
    expect(names("It cannot keep up", [keys])).toEqual(["keys"]);
  });

  it("counts each matched concept once, and a phrase that is also a trigger only as the trigger", () => {
    const [m] = scoreSkills([keys], {
      text: "The secret is in the keystore; support can impersonate users and impersonate admins.",
      role: "judge",
    });
    expect(m!.hits.map((h) => h.trigger)).toEqual(["secret"]);
    expect(m!.concepts.map((c) => [c.concept, c.phrases])).toEqual([
      ["key in a client", ["keystore"]],
      ["who gets in", ["impersonate"]],
    ]);
    expect(m!.score).toBe(POINTS_PER_WORD + 2 * CONCEPT_POINTS);
  });

  it("ranks a skill that names the subject with more points first, whether by trigger or by concept", () => {
    const perf = skillOf("perf", {
      triggers: ["latency"],
      concepts: [{ name: "slow", phrases: ["sluggish"] }],
    });
    expect(names("Sluggish latency and a signing key", [keys, perf])).toEqual(["perf", "keys"]);
  });
});
