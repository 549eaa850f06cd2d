import type { ArgumentAuthor, ArgumentDraft, ArgumentFrontmatter } from "@debatekit/schema";
import type { ArgumentRecord, SideCode } from "../types.js";

// Model text goes into a markdown body that is parsed again later (by files, by people, by the
// report). A line of model text must never be able to start a section, close the frontmatter, or
// open a block that swallows the following sections. So, line by line:
//   - a line that could start an ATX heading (`#`), a setext underline or thematic break (`---`,
//     `===`, `***`, `___`), a code fence (``` or ~~~), an HTML block (`<`) is prefixed with a backslash, which markdown shows as the
//     literal character;
//   - CRLF becomes LF, control characters other than tab are dropped;
//   - single-line fields (title, claim in frontmatter, ground source, ids) have their whitespace
//     runs collapsed to one space.
const BLOCK_STARTERS = /^( {0,3})(#|```|~~~|<|[-=_*](?:\s*[-=_*])*\s*$)/;

function dropControl(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

/** Makes multi-line model text safe to embed as markdown paragraphs (see the comment above). */
export function escapeBlock(text: string): string {
  return dropControl(text)
    .trim()
    .split("\n")
    .map((line) =>
      line.replace(BLOCK_STARTERS, (_m, indent: string, starter: string) => `${indent}\\${starter}`),
    )
    .join("\n");
}

/** Collapses model text to one line (titles, claims in frontmatter, ground sources). */
export function singleLine(text: string): string {
  return dropControl(text).replace(/\s+/g, " ").trim();
}

function quoteBlock(text: string): string {
  return escapeBlock(text)
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** The Toulmin body of an argument, in the layout of dialectic's argument files. */
export function renderArgumentBody(draft: ArgumentDraft): string {
  const parts: string[] = ["## Claim", escapeBlock(draft.claim), "## Grounds"];
  draft.grounds.forEach((ground, i) => {
    parts.push(
      `### ${i + 1}. ${escapeHeading(ground.source)}`,
      quoteBlock(ground.content),
      `**Relevance:** ${escapeBlock(ground.relevance)}`,
    );
  });
  parts.push("## Warrant", escapeBlock(draft.warrant));
  if (draft.backing?.trim()) parts.push("## Backing", escapeBlock(draft.backing));
  if (draft.qualifier?.trim()) parts.push("## Qualifier", escapeBlock(draft.qualifier));
  if (draft.attacks?.length) {
    parts.push("## Attacks");
    for (const attack of draft.attacks) {
      parts.push(
        `### Attacking ${attack.target_id}`,
        `**Type:** ${attack.attack_type}`,
        escapeBlock(attack.content),
      );
    }
  }
  if (draft.defends?.length) {
    parts.push("## Defends");
    for (const defense of draft.defends) {
      parts.push(
        `### Defending ${defense.target_id}`,
        `**Type:** ${defense.defense_type}`,
        escapeBlock(defense.content),
      );
    }
  }
  return `${parts.join("\n\n")}\n`;
}

function escapeHeading(text: string): string {
  // Trailing #s would be read as the heading's closing sequence.
  return singleLine(text).replace(/#+$/, (m) => `\\${m}`);
}

/** Where an argument sits: the engine's id, side and exchange, and optionally who wrote it. */
export interface ArgumentPlacement {
  id: string;
  side: SideCode;
  exchange: number;
  author?: ArgumentAuthor;
}

/** Turns a checked draft into the argument file's record; the id comes from the engine, never from the draft. */
export function renderArgument(draft: ArgumentDraft, placement: ArgumentPlacement): ArgumentRecord {
  const frontmatter: ArgumentFrontmatter = {
    id: placement.id,
    side: placement.side,
    exchange: placement.exchange,
    title: singleLine(draft.title),
    claim: singleLine(draft.claim),
    attacks: (draft.attacks ?? []).map((a) => ({ target_id: a.target_id, type: a.attack_type })),
    defends: (draft.defends ?? []).map((d) => ({ target_id: d.target_id, type: d.defense_type })),
  };
  if (placement.author) frontmatter.author = placement.author;
  return { frontmatter, body: renderArgumentBody({ ...draft, claim: frontmatter.claim }) };
}
