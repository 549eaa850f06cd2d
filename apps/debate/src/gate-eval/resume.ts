import type { GateRun } from "@debatekit/core";
import type { GateEvalCase, GatePolicy, GateResult } from "@debatekit/schema";

/** The review folder's name under each case's work folder (`<work>/debates/gate`). */
export const REVIEW_SLUG = "gate";

/** The gate's scope for a case: the change from its base to its head. */
export const caseScope = (c: GateEvalCase) => `range:${c.base}..${c.head}`;

/**
 * Finishes the review a cut-off gate left in `dir` and judges it under `policy`, as the gate would
 * have: the runner continues from the review's journal, so no seat call already answered is asked
 * again. Only the programs in `vouched` (those the evaluation recorded when it made the folder:
 * made.ts) run without the user's `debate allow`; the runner refuses any other, as `debate run`
 * does. Settings come from the base revision (`tree` is the case's clone).
 */
export async function finishGateReview(
  dir: string,
  tree: string,
  c: GateEvalCase,
  policy: GatePolicy,
  env: NodeJS.ProcessEnv,
  vouched: readonly string[],
): Promise<GateResult> {
  const [{ evaluateGate }, { readDebateFolder }, { runDebate }, { openBaseTree }, { parseScope }] =
    await Promise.all([
      import("@debatekit/core"),
      import("@debatekit/files"),
      import("@debatekit/runner"),
      import("../gate/base.js"),
      import("../review/scope.js"),
    ]);
  const scope = caseScope(c);
  const base = await openBaseTree(tree, parseScope(scope));
  try {
    const summary = await runDebate(dir, { env, cwd: base.cwd, command: `debate gate ${scope}`, vouched });
    const run: GateRun = {
      status: summary.status,
      ...(summary.error ? { error: { code: summary.error.code, message: summary.error.message } } : {}),
      ...(summary.error?.role ? { role: summary.error.role } : {}),
      ...(summary.error?.adapter ? { adapter: summary.error.adapter } : {}),
      ...(summary.reason ? { reason: summary.reason } : {}),
    };
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(`${dir}: ${read.errors[0]?.message ?? "unreadable"}`);
    return evaluateGate({ state: read.value.state, run, policy, dir, scope });
  } finally {
    await base.dispose();
  }
}
