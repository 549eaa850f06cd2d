// @debatekit/core: pure debate logic (no fs, no process, no clock, no env). See README.md.

export type { DebatekitErrorOptions } from "./errors.js";
export { DebatekitError, fail, formatRuleErrors, ok, quote, ruleError } from "./errors.js";
export { otherRole, roleOfSide, sideCode } from "./sides.js";
export type {
  AgentTemplate,
  ArgumentRecord,
  DebaterRole,
  DebateState,
  Motion,
  NextAction,
  Result,
  RuleError,
  SeatRole,
  SideCode,
} from "./types.js";
