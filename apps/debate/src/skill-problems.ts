import type { SkillProblemReport } from "@debatekit/runner";
import type { SkillProblem } from "@debatekit/skills";

/** Problems without `cause` (an Error does not serialize, and the message already says it). */
export function plainProblems(problems: SkillProblem[]): Omit<SkillProblem, "cause">[] {
  return problems.map(({ cause: _cause, ...rest }) => rest);
}

/** One line for a skill problem: severity, code, file, field, what is wrong. */
export function formatSkillProblem(problem: SkillProblemReport): string {
  const field = problem.field ? ` (${problem.field})` : "";
  return `${problem.severity} ${problem.code} ${problem.file}${field}: ${problem.message}`;
}
