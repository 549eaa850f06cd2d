import { DebatekitError, quote } from "@debatekit/core";
import type { TournamentFrontmatter } from "@debatekit/schema";

/** One motion of a tournament. */
export type TournamentMotion = TournamentFrontmatter["motions"][number];

const ANSWERS: Record<string, "for" | "against"> = {
  for: "for",
  against: "against",
  true: "for",
  false: "against",
};

/**
 * Parses a motions file: `.txt` is one motion per non-empty line (`#` starts a comment line);
 * `.jsonl` is one `{"motion": "...", "answer": "for" | "against"}` per line (answer optional; `true`
 * and `false` are read as for and against). Errors name the file, line and field.
 */
export function parseMotions(text: string, file: string): TournamentMotion[] {
  const jsonl = /\.jsonl$/i.test(file);
  const motions: TournamentMotion[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || (!jsonl && line.startsWith("#"))) continue;
    const where = `${file}:${i + 1}`;
    let motion: string;
    let answer: "for" | "against" | undefined;
    if (jsonl) {
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        throw new DebatekitError("MOTIONS_INVALID", `${where} is not JSON: ${quote(line, 80)}`, {
          file,
          field: `line ${i + 1}`,
        });
      }
      const record = (data ?? {}) as Record<string, unknown>;
      if (typeof data !== "object" || data === null || typeof record.motion !== "string") {
        throw new DebatekitError(
          "MOTIONS_INVALID",
          `${where}: \`motion\` must be a string, e.g. {"motion": "This house would ...", "answer": "for"}; got ${quote(line, 80)}`,
          { file, field: `line ${i + 1}.motion` },
        );
      }
      motion = record.motion.trim();
      if (record.answer !== undefined) {
        answer = ANSWERS[String(record.answer).toLowerCase()];
        if (!answer) {
          throw new DebatekitError(
            "MOTIONS_INVALID",
            `${where}: \`answer\` must be "for" or "against" (or true/false), got ${quote(record.answer)}`,
            { file, field: `line ${i + 1}.answer` },
          );
        }
      }
      const extra = Object.keys(record).filter((k) => k !== "motion" && k !== "answer");
      if (extra.length > 0) {
        throw new DebatekitError(
          "MOTIONS_INVALID",
          `${where}: unknown field \`${extra[0]}\` (expected motion, answer)`,
          {
            file,
            field: `line ${i + 1}.${extra[0]}`,
          },
        );
      }
    } else motion = line;
    if (motion === "" || motion.length > 4000 || /^#/m.test(motion)) {
      throw new DebatekitError(
        "MOTIONS_INVALID",
        `${where}: a motion must be 1-4000 characters of text without markdown headings, got ${quote(motion, 80)}`,
        { file, field: `line ${i + 1}.motion` },
      );
    }
    const id = `m${String(motions.length + 1).padStart(2, "0")}`;
    motions.push({ id, motion, ...(answer ? { answer } : {}) });
  }
  if (motions.length === 0) {
    throw new DebatekitError("MOTIONS_EMPTY", `${file} holds no motion`, { file, field: "(file)" });
  }
  return motions;
}
