import type { FormatReport } from "../../report-model.js";
import type { ReviewState } from "./state.js";

/** The report's body for a review debate. (Placeholder: @debatekit/report still holds its builder until it moves here.) */
export const reviewReport: ((state: ReviewState) => FormatReport) | undefined = undefined;
