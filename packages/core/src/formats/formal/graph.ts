import type { ArgumentRecord, DebateState } from "../../types.js";

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

/** What renderArgumentGraph writes for one argument, remembered per argument object (committed arguments never change). */
interface ArgumentLines {
  /** What the lines were made from (a hand-built state that replaces them gets new lines). */
  from: [string, string, string, unknown, unknown];
  /** The score the node text shows (null: unscored) and the node's two lines for it. */
  score: number | null | undefined;
  node: string;
  /** Its edges in order: the target, the edge line and the link style. */
  edges: Array<{ target: string; line: string; style: string }>;
  /** The edge lines joined, one per line, when every target exists. */
  edgeText: string;
}
const argumentLines = new WeakMap<ArgumentRecord, ArgumentLines>();

function linesOf(arg: ArgumentRecord): ArgumentLines {
  const { id, title, side, attacks, defends } = arg.frontmatter;
  let lines = argumentLines.get(arg);
  if (
    lines &&
    lines.from[0] === id &&
    lines.from[1] === title &&
    lines.from[2] === side &&
    lines.from[3] === attacks &&
    lines.from[4] === defends
  )
    return lines;
  const edges: ArgumentLines["edges"] = [];
  for (const attack of attacks ?? []) {
    edges.push({
      target: attack.target_id,
      line: `    ${id} -->|⚔️ ${attack.type.replace(/_attack$/, "")}| ${attack.target_id}`,
      style: ATTACK_LINK,
    });
  }
  for (const defense of defends ?? []) {
    edges.push({
      target: defense.target_id,
      line: `    ${id} -->|🛡️ ${defense.type}| ${defense.target_id}`,
      style: DEFENSE_LINK,
    });
  }
  lines = {
    from: [id, title, side, attacks, defends],
    score: undefined,
    node: "",
    edges,
    edgeText: edges.map((e) => `${e.line}\n`).join(""),
  };
  argumentLines.set(arg, lines);
  return lines;
}

/** `    linkStyle <i> <style>` lines, remembered by index. */
const linkStyles = new Map<string, string[]>();
function linkStyle(i: number, style: string): string {
  let known = linkStyles.get(style);
  if (!known) {
    known = [];
    linkStyles.set(style, known);
  }
  let line = known[i];
  if (line === undefined) {
    line = `    linkStyle ${i} ${style}\n`;
    known[i] = line;
  }
  return line;
}

/**
 * The Mermaid argument graph (dialectic's argument-graph.mmd layout): one node per argument with its
 * score, attack and defense edges. Each argument's lines are remembered (per score for its node), so a
 * step of a long debate re-renders only what the step changed, then joins.
 */
export function renderArgumentGraph(state: DebateState): string {
  const args = [...state.arguments].sort(compareIds);
  const ids = new Set<string>();
  for (const arg of args) ids.add(arg.frontmatter.id);
  let nodes = "";
  let edges = "";
  const links: string[] = [];
  for (const arg of args) {
    const { id, side } = arg.frontmatter;
    const lines = linesOf(arg);
    const record = state.scores[id];
    const score = record ? record.current_score : null;
    if (lines.score !== score || lines.node === "") {
      const shown = record ? `⭐ ${record.current_score.toFixed(2)}` : "⏳ unscored";
      lines.score = score;
      lines.node = `    ${id}["${id}<br/>${escapeMermaidLabel(arg.frontmatter.title)}<br/>${shown}"]\n    style ${id} ${SIDE_STYLE[side]}${record ? "" : UNSCORED_STYLE}\n`;
    }
    nodes += lines.node;
    // Edges only to arguments that exist: a hand-edited file may name a target that is gone.
    if (lines.edges.every((e) => ids.has(e.target))) {
      edges += lines.edgeText;
      for (const e of lines.edges) links.push(e.style);
    } else {
      for (const e of lines.edges) {
        if (!ids.has(e.target)) continue;
        edges += `${e.line}\n`;
        links.push(e.style);
      }
    }
  }
  if (links.length === 0) return `${HEADER}\n${nodes}`;
  let styles = "";
  for (let i = 0; i < links.length; i++) styles += linkStyle(i, links[i]!);
  return `${HEADER}\n${nodes}\n${edges}\n${styles}`;
}
