import { FALLBACK_ROLE } from "../../judging/panel.js";
import type { FormatDeclaration } from "../format.js";

/**
 * What the crossfire format declares before any debate is read: its name, seats, unit and the options
 * of `debate new`. Data only, so help and completion read it without loading the format's rules.
 */
export const crossfireDeclaration = {
  name: "crossfire",
  roles: [
    { role: "proposer", kind: "debater", description: "proposes and defends" },
    { role: "challenger", kind: "debater", description: "challenges" },
    { role: "judge", kind: "judge", description: "gives the verdict (with a panel: judge_2 .. judge_5 too)" },
    {
      role: FALLBACK_ROLE,
      kind: "fallback",
      description: "gives the verdict when too few of the panel answered",
    },
    { role: "summarizer", kind: "summarizer", description: "summarizes rounds from round 3" },
    { role: "reporter", kind: "reporter", description: "writes the report's narrative (optional)" },
  ],
  unit: { one: "round", many: "rounds" },
  tournament: { first: "proposer", second: "challenger", judge: "judge" },
  newOptions: {
    seats: [
      { role: "proposer", description: "who proposes and defends (required)", required: true },
      { role: "challenger", description: "who challenges (required)", required: true },
      {
        role: "judge",
        description:
          "who gives the verdict (default: claude, codex or gemini, whichever debates in neither seat)",
      },
      { role: "summarizer", description: "who summarizes rounds from round 3 (default: the judge)" },
    ],
    length: { flag: "rounds", key: "rounds", description: "how many rounds", default: 2, min: 1, max: 5 },
    panel: true,
  },
  importers: {
    agentsys: {
      description:
        "agentsys /debate's last-debate.json: topic, seats, effort and rounds; its transcript kept in debate.md",
    },
  },
} as const satisfies FormatDeclaration;
