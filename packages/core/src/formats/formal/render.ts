import type { ArgumentAuthor, ArgumentDraft, ArgumentFrontmatter } from "@debatekit/schema";
import { escapeBlock, singleLine } from "../../render/markdown.js";
import type { ArgumentRecord, SideCode } from "../../types.js";

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
