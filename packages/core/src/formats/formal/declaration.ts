import { FALLBACK_ROLE } from "../../judging/panel.js";
import type { FormatDeclaration } from "../format.js";

/**
 * What the formal format declares before any debate is read: its name, seats, unit and the options
 * of `debate new`. Data only, so help and completion read it without loading the format's rules.
 */
export const formalDeclaration = {
  name: "formal",
  roles: [
    { role: "proposition", kind: "debater", description: "argues for the motion" },
    { role: "opposition", kind: "debater", description: "argues against it" },
    {
      role: "judge",
      kind: "judge",
      description: "scores every argument (with a panel: judge_2 .. judge_5 too)",
    },
    { role: FALLBACK_ROLE, kind: "fallback", description: "scores when too few of the panel answered" },
    { role: "reporter", kind: "reporter", description: "writes the report's narrative (optional)" },
  ],
  unit: { one: "exchange", many: "exchanges" },
  tournament: { first: "proposition", second: "opposition", judge: "judge" },
  newOptions: {
    seats: [
      { role: "proposition", description: "who argues for the motion", default: "claude" },
      { role: "opposition", description: "who argues against it", default: "gemini" },
      {
        role: "judge",
        description:
          "who scores every argument (default: codex, gemini, claude or opencode, whichever debates in neither seat)",
      },
    ],
    length: {
      flag: "exchanges",
      key: "exchanges",
      description: "how many exchanges, the opening included",
      default: 5,
      min: 1,
      max: 1000,
    },
    panel: true,
  },
} as const satisfies FormatDeclaration;
