import type { FormatReport } from "../../report-model.js";
import type { DebateState } from "../../types.js";

/** The report's body for a crossfire debate. (Placeholder: @debatekit/report still holds its builder until it moves here.) */
export const crossfireReport: ((state: DebateState) => FormatReport) | undefined = undefined;
