// formal's state machine lives in ./formal/machine.ts; this path is kept so existing imports still resolve.
export { applyArguments, applyJudgment, checkPhase, nextAction } from "./formal/machine.js";
