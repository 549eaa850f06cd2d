import { redactSecrets } from "@debatekit/adapter-kit";
import type { SkillProblem } from "@debatekit/skills";
import type { RunEvent, SkillProblemReport } from "./types.js";

/** A problem as an event carries it: no `cause`, every string redacted, on one line. */
export function reportSkillProblem(problem: SkillProblem, secrets: readonly string[]): SkillProblemReport {
  // A manifest that is not JSON is quoted in the message; a skill name or field comes from a file
  // too. Any of them may hold a pasted key.
  const clean = (text: string) => redactSecrets(text, secrets).replace(/\s*\n\s*/g, " ");
  return {
    code: problem.code,
    severity: problem.severity,
    file: clean(problem.file),
    ...(problem.field !== undefined ? { field: clean(problem.field) } : {}),
    ...(problem.skill !== undefined ? { skill: clean(problem.skill) } : {}),
    message: clean(problem.message),
  };
}

/**
 * Emits each skill problem as a `skill_problem` event once per run: loadSkills runs for every seat
 * call and its cache hands back the same problems each time, so a problem counts as seen by its
 * code, file and field. Returns the function the seats report through.
 */
export function createSkillProblemReporter(options: {
  dir: string;
  secrets: readonly string[];
  emit: (event: RunEvent) => void;
}): (role: string, problems: readonly SkillProblem[]) => void {
  const seen = new Set<string>();
  return (role, problems) => {
    for (const problem of problems) {
      const key = JSON.stringify([problem.code, problem.file, problem.field ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      options.emit({
        type: "skill_problem",
        dir: options.dir,
        role,
        ...reportSkillProblem(problem, options.secrets),
      });
    }
  };
}
