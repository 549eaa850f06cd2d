// Subpath "@debatekit/report/testing": fixtures for tests and the bench (not in the main entry).
import type { ArgumentRecord, DebateState } from "@debatekit/core";
import type { ScoresFile } from "@debatekit/schema";

/** A formal debate of `exchanges` judged exchanges (one argument per side each, attacking the other's last), for tests and the bench. */
export function longFormalDebate(exchanges: number): DebateState {
  const args: ArgumentRecord[] = [];
  const scores: ScoresFile = {};
  const at = "2026-11-21T10:00:00.000Z";
  for (let e = 0; e < exchanges; e++) {
    for (const side of ["prop", "opp"] as const) {
      const id = `${side}_${String(e).padStart(3, "0")}${e === 0 ? "a" : ""}`;
      const other = side === "prop" ? "opp" : "prop";
      const target = e === 0 ? undefined : `${other}_${String(e - 1).padStart(3, "0")}${e === 1 ? "a" : ""}`;
      args.push({
        frontmatter: {
          id,
          side,
          exchange: e,
          title: `${side} argument ${e}`,
          claim: "a claim",
          ...(target ? { attacks: [{ target_id: target, type: "rebutting_attack" }] } : {}),
        },
        body: "",
      } as ArgumentRecord);
      const score = ((e * 7 + (side === "prop" ? 3 : 5)) % 11) / 20 - 0.25;
      scores[id] = { current_score: score, history: [{ score, reasoning: `reason ${id}`, scored_at: at }] };
    }
  }
  return {
    frontmatter: {
      debate_id: "long",
      format: "formal",
      exchanges,
      current_exchange: exchanges,
      current_phase: "complete",
    },
    body: "# Motion\n\nA long debate.\n",
    motion: { text: "A long debate." },
    arguments: args,
    scores,
  } as unknown as DebateState;
}
