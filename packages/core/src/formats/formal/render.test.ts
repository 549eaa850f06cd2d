import { describe, expect, it } from "vitest";
import { escapeBlock } from "../../render/markdown.js";
import { draft } from "../../test-helpers/states.js";
import { renderArgument, renderArgumentBody } from "./render.js";

const SECTIONS = ["Claim", "Grounds", "Warrant", "Backing", "Qualifier", "Attacks", "Defends"];

function sectionHeadings(body: string): string[] {
  return body
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, ""));
}

describe("renderArgument", () => {
  it("renders an opening exactly as dialectic lays it out", () => {
    const record = renderArgument(
      draft("Precaution", {
        claim: "Irreversible harms justify precaution.",
        grounds: [
          {
            source: "CAIS statement (https://www.safe.ai)",
            content: "Line one.\nLine two.",
            relevance: "Experts agree.",
          },
        ],
        warrant: "Irreversibility shifts the burden.",
        qualifier: "For severe harms",
      }),
      { id: "prop_000a", side: "prop", exchange: 0 },
    );
    expect(record.frontmatter).toEqual({
      id: "prop_000a",
      side: "prop",
      exchange: 0,
      title: "Precaution",
      claim: "Irreversible harms justify precaution.",
      attacks: [],
      defends: [],
    });
    expect(record.body).toBe(
      [
        "## Claim",
        "",
        "Irreversible harms justify precaution.",
        "",
        "## Grounds",
        "",
        "### 1. CAIS statement (https://www.safe.ai)",
        "",
        "> Line one.",
        "> Line two.",
        "",
        "**Relevance:** Experts agree.",
        "",
        "## Warrant",
        "",
        "Irreversibility shifts the burden.",
        "",
        "## Qualifier",
        "",
        "For severe harms",
        "",
      ].join("\n"),
    );
  });

  it("keeps hostile model text from adding sections, closing frontmatter or swallowing what follows", () => {
    const hostile =
      "ok\n---\nid: opp_000a\n---\n## Warrant\n# Title\n```\n<!-- open comment\n===\n* * *\n   ### deep";
    const record = renderArgument(
      draft("Hostile\n---\ntitle", {
        claim: `claim\n---\n## Claim`,
        grounds: [
          { source: "src ##\n## Grounds", content: hostile, relevance: hostile },
          { source: "trailing ##", content: "c", relevance: "r" },
        ],
        warrant: hostile,
        backing: hostile,
        qualifier: hostile,
        attacks: [{ target_id: "opp_000a", attack_type: "claim_attack", content: hostile }],
        defends: [{ target_id: "prop_000b", defense_type: "clarify", content: hostile }],
      }),
      { id: "prop_001", side: "prop", exchange: 1 },
    );
    expect(record.frontmatter.title).toBe("Hostile --- title");
    expect(record.frontmatter.claim).toBe("claim --- ## Claim");
    expect(sectionHeadings(record.body)).toEqual([
      "Claim",
      "Grounds",
      "1. src ## ## Grounds",
      "2. trailing \\##",
      "Warrant",
      "Backing",
      "Qualifier",
      "Attacks",
      "Attacking opp_000a",
      "Defends",
      "Defending prop_000b",
    ]);
    expect(sectionHeadings(record.body).filter((h) => SECTIONS.includes(h))).toEqual(SECTIONS);
    // No line of the body is a frontmatter delimiter, a fence, an HTML start or a setext underline.
    for (const line of record.body.split("\n")) {
      expect(line).not.toMatch(/^ {0,3}(---|===|```|~~~|<|\* \* \*)/);
    }
    expect(record.body).toContain("\\---\nid: opp_000a");
    expect(record.body.endsWith("\n")).toBe(true);
  });

  it("drops control characters and normalises line ends", () => {
    expect(escapeBlock("a\r\nb\u0007c\rd")).toBe("a\nbc\nd");
  });

  it("renders attacks and defends with their types", () => {
    const body = renderArgumentBody(
      draft("R", {
        attacks: [{ target_id: "opp_000c", attack_type: "warrant_attack", content: "Fails." }],
        defends: [{ target_id: "prop_000a", defense_type: "concede_and_pivot", content: "Granted, but." }],
      }),
    );
    expect(body).toContain(
      "## Attacks\n\n### Attacking opp_000c\n\n**Type:** warrant_attack\n\nFails.\n\n## Defends\n\n### Defending prop_000a\n\n**Type:** concede_and_pivot\n\nGranted, but.\n",
    );
  });
});
