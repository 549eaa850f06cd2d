import type { AnyFormat, DebateState, SeatKind } from "@debatekit/core";
import { DebatekitError, judgeRole, judgingOf } from "@debatekit/core";
import type { StepContext } from "./step.js";
import type { RunStop } from "./summary.js";

// Seats a format may do without: a fallback or a summarizer stands in only when configured, and the
// reporter is asked by the report, never by a run.
const OPTIONAL: ReadonlySet<SeatKind> = new Set(["fallback", "summarizer", "reporter"]);

/**
 * The roles a run of `state` may call, in the format's order: each seat of `format.roles`, a judge
 * role once per judge of the panel, and the optional seats only when debate.md names them.
 */
export function rolesToCall(format: AnyFormat, state: DebateState): string[] {
  const panel = judgingOf(state.frontmatter)?.panel.map((_, index) => judgeRole(index));
  return format.roles.flatMap((spec) => {
    if (spec.kind === "reporter") return [];
    const roles = spec.kind === "judge" && panel ? panel : [spec.role];
    return OPTIONAL.has(spec.kind) ? roles.filter((role) => format.seat(state, role)) : roles;
  });
}

/**
 * Makes the adapter of every seat the run may call before the first call, so that a seat that is
 * not named, not allowed, or whose configuration cannot work (a replay file outside the folder)
 * stops the run while it has cost nothing and changed no file. Calls no model and starts no program.
 */
export async function checkSeatsBeforeRun(
  ctx: Pick<StepContext, "seatAdapter">,
  format: AnyFormat,
  state: DebateState,
): Promise<RunStop | undefined> {
  for (const role of rolesToCall(format, state)) {
    try {
      await ctx.seatAdapter(format, state, role);
    } catch (error) {
      if (!(error instanceof DebatekitError)) throw error;
      return {
        status: "failed",
        reason: "checked before the first call: nothing was asked or written",
        error: {
          code: error.code,
          message: `the ${role} seat cannot be called: ${error.message}`,
          file: error.file ?? "debate.md",
          field: error.field ?? `seats.${role}`,
        },
      };
    }
  }
  return undefined;
}
