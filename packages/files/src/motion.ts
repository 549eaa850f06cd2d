import type { Motion, Result } from "@debatekit/core";
import { quote } from "@debatekit/core";

// A heading line: `# Motion`, `## Definitions`, ... (level and title).
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/** Parses debate.md's body: the text under `# Motion`, and the optional `## Definitions` and `## Scope`. */
export function parseMotion(body: string, file = "debate.md"): Result<Motion> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of body.split("\n")) {
    const heading = HEADING.exec(line.replace(/\r$/, ""));
    if (heading) {
      const key = `${heading[1]!.length}:${heading[2]!.trim().toLowerCase()}`;
      current = sections.has(key) ? undefined : [];
      if (current) sections.set(key, current);
      continue;
    }
    current?.push(line);
  }
  const text = sections.get("1:motion")?.join("\n").trim();
  if (!text) {
    return {
      ok: false,
      errors: [
        {
          code: "MOTION_MISSING",
          path: `${file}:(body)`,
          message: `${file}: expected a \`# Motion\` heading followed by the motion text in the body, got ${quote(body)}`,
        },
      ],
    };
  }
  const motion: Motion = { text };
  const definitions = sections.get("2:definitions")?.join("\n").trim();
  const scope = sections.get("2:scope")?.join("\n").trim();
  if (definitions) motion.definitions = definitions;
  if (scope) motion.scope = scope;
  return { ok: true, value: motion };
}
