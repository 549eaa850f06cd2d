import type { FormatReport } from "../../report-model.js";
import type { CrossfireState } from "./state.js";

/** The report's body for a crossfire debate. (Placeholder: @debatekit/report still holds its builder until it moves here.) */
export const crossfireReport: ((state: CrossfireState) => FormatReport) | undefined = undefined;
