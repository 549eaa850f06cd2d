import { FALLBACK_ROLE } from "../../judging/panel.js";
import type { FormatDeclaration } from "../format.js";

/**
 * What the review format declares before any debate is read: its name, seats, unit and the options
 * of `debate new`. Data only, so help and completion read it without loading the format's rules.
 */
export const reviewDeclaration = {
  name: "review",
  roles: [
    { role: "critic", kind: "critic", description: "critiques the artifact" },
    {
      role: "judge",
      kind: "judge",
      description: "classifies the findings and recommends (with a panel: judge_2 .. judge_5 too)",
    },
    {
      role: "fallback_judge",
      kind: "fallback",
      description: "judges when the judge fails (seats.fallback_judge)",
    },
    { role: FALLBACK_ROLE, kind: "fallback", description: "judges when too few of the panel answered" },
    { role: "author", kind: "author", description: "answers and revises" },
    { role: "reporter", kind: "reporter", description: "writes the report's narrative (optional)" },
  ],
  unit: { one: "round", many: "rounds" },
  newOptions: {
    seats: [
      {
        role: "critic",
        description: "who critiques (default: the other model: codex, or claude when codex authors)",
      },
      {
        role: "author",
        description: "who answers and revises (default: claude, or codex when claude critiques)",
      },
      { role: "judge", description: "who classifies the findings and recommends (default: the author)" },
    ],
    length: {
      flag: "max-rounds",
      key: "max_rounds",
      description: "at most this many rounds",
      default: 3,
      min: 1,
      max: 10,
    },
    panel: true,
    artifact: true,
  },
} as const satisfies FormatDeclaration;
