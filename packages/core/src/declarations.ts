// `@debatekit/core/declarations`: what the registered formats declare (names, seats, the options of
// `debate new`), without their rules: a command line's help and shell completion load this alone.

export type { BuiltinFormatName } from "./formats/declarations.js";
export { DEFAULT_FORMAT_NAME, formatDeclarations } from "./formats/declarations.js";
export type {
  FormatDeclaration,
  NewDebateOptions,
  ProgressUnit,
  SeatKind,
  SeatSpec,
  TournamentSides,
} from "./formats/format.js";
