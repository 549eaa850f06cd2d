import { crossfireFormat, type Format, formalFormat, reviewFormat } from "@debatekit/core";
import { crossfireReporter } from "./formats/crossfire.js";
import { formalReporter } from "./formats/formal.js";
import { reviewReporter } from "./formats/review.js";
import type { FormatReporter } from "./model.js";

/**
 * Each format's report sections, keyed by the format object of core's registry (never by its name):
 * a new format adds one row here, or passes its own table to `buildReport`.
 */
export const reporters: ReadonlyMap<Format, FormatReporter> = new Map<Format, FormatReporter>([
  [formalFormat, formalReporter],
  [crossfireFormat, crossfireReporter],
  [reviewFormat, reviewReporter],
]);
