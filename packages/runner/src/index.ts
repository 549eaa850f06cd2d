export { builtinAdapters, createSeatAdapter, isAdapterInstalled } from "./adapters.js";
export type { SeatContext, SeatOutcome } from "./ask-seat.js";
export { askSeat } from "./ask-seat.js";
export type { PromptInput, SkillChoice } from "./prompt.js";
export { assemblePrompt } from "./prompt.js";
export { runDebate } from "./run.js";
export type {
  AdapterFactory,
  Phase,
  RunEvent,
  RunOptions,
  RunSummary,
  SkillProblemReport,
  StepRef,
} from "./types.js";
