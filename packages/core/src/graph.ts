import type { ArgumentRecord, DebateState } from "./types.js";

const HEADER = `---
config:
  layout: elk
  elk:
    nodePlacementStrategy: NETWORK_SIMPLEX
---
graph TD
`;
const SIDE_STYLE = {
  prop: "fill:#1B5E20,stroke:#4CAF50,stroke-width:2px,color:#FFFFFF",
  opp: "fill:#B71C1C,stroke:#F44336,stroke-width:2px,color:#FFFFFF",
} as const;
const UNSCORED_STYLE = ",stroke-dasharray:5 5";
const ATTACK_LINK = "stroke:#ff9800,stroke-width:2px";
const DEFENSE_LINK = "stroke:#2196F3,stroke-width:2px";

/**
 * Escapes text for a quoted Mermaid label: Mermaid's entity codes (#quot; ...) for the characters
 * that end or reinterpret a label, one line, no control characters. Other unicode passes through.
 */
export function escapeMermaidLabel(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[#"<>[\]{}()`&|;]/g, (ch) => `#${ch.codePointAt(0)};`);
}

function compareIds(a: ArgumentRecord, b: ArgumentRecord): number {
  return a.frontmatter.id < b.frontmatter.id ? -1 : a.frontmatter.id > b.frontmatter.id ? 1 : 0;
}

/** The Mermaid argument graph (dialectic's argument-graph.mmd layout): one node per argument with its score, attack and defense edges. */
export function renderArgumentGraph(state: DebateState): string {
  const args = [...state.arguments].sort(compareIds);
  const ids = new Set(args.map((a) => a.frontmatter.id));
  const lines: string[] = [HEADER];
  for (const arg of args) {
    const { id, title, side } = arg.frontmatter;
    const record = state.scores[id];
    const score = record ? `⭐ ${record.current_score.toFixed(2)}` : "⏳ unscored";
    lines.push(`    ${id}["${id}<br/>${escapeMermaidLabel(title)}<br/>${score}"]`);
    lines.push(`    style ${id} ${SIDE_STYLE[side]}${record ? "" : UNSCORED_STYLE}`);
  }
  const links: string[] = [];
  const edges: string[] = [];
  for (const arg of args) {
    const { id } = arg.frontmatter;
    // Edges only to arguments that exist: a hand-edited file may name a target that is gone.
    for (const attack of arg.frontmatter.attacks ?? []) {
      if (!ids.has(attack.target_id)) continue;
      edges.push(`    ${id} -->|⚔️ ${attack.type.replace(/_attack$/, "")}| ${attack.target_id}`);
      links.push(ATTACK_LINK);
    }
    for (const defense of arg.frontmatter.defends ?? []) {
      if (!ids.has(defense.target_id)) continue;
      edges.push(`    ${id} -->|🛡️ ${defense.type}| ${defense.target_id}`);
      links.push(DEFENSE_LINK);
    }
  }
  if (edges.length > 0)
    lines.push("", ...edges, "", ...links.map((style, i) => `    linkStyle ${i} ${style}`));
  return `${lines.join("\n")}\n`;
}
