import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { type GateEvalCase, validateGateEvalCase } from "@debatekit/schema";

const EXAMPLE =
  '{"id":"bad-3f2a9c1","repo":"repo","base":"9b1c0e7","head":"3f2a9c1","label":"bad","fix":"77d0a4e","reasons":["..."]}';

/** Parses a labelled set (JSON Lines, one case a line; blank lines skipped); an error names the file, line and field. */
export function parseEvalSet(text: string, file: string): GateEvalCase[] {
  const cases: GateEvalCase[] = [];
  const ids = new Set<string>();
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const at = `${file}:${index + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new Error(
        `${at}: not JSON (${line.slice(0, 200)}); a case is one JSON object a line, e.g. ${EXAMPLE}`,
        {
          cause: error,
        },
      );
    }
    const checked = validateGateEvalCase(data);
    if (!checked.ok) {
      const first = checked.errors[0]!;
      throw new Error(
        `${at}: field \`${first.path || "(root)"}\` ${first.message}; a valid case: ${EXAMPLE}`,
      );
    }
    if (ids.has(checked.value.id))
      throw new Error(`${at}: field \`id\`: "${checked.value.id}" is used twice`);
    ids.add(checked.value.id);
    cases.push(checked.value);
  });
  return cases;
}

/** The set's serialized form: one case a line, ending with a newline. */
export function serializeEvalSet(cases: readonly GateEvalCase[]): string {
  return cases.map((c) => `${JSON.stringify(c)}\n`).join("");
}

/** Reads a labelled set; each case's `repo` made absolute (relative paths are relative to the set file's folder). */
export async function readEvalSet(file: string): Promise<GateEvalCase[]> {
  const cases = parseEvalSet(await readFile(file, "utf8"), file);
  return cases.map((c) => ({ ...c, repo: isAbsolute(c.repo) ? c.repo : resolve(dirname(file), c.repo) }));
}
