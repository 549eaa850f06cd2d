export { builtinAdapters, createSeatAdapter, isAdapterInstalled } from "./adapters.js";
export type { ExtraSeatAsk, RunBudget, SeatContext, SeatOutcome } from "./ask-seat.js";
export { askSeat } from "./ask-seat.js";
export type { SeatConsentCheck } from "./consent.js";
export { checkFolderConsent } from "./consent.js";
export type { ExtraSeatRequest } from "./extra-seat.js";
export { askExtraSeat } from "./extra-seat.js";
export {
  buildLedger,
  entryUsage,
  LEDGER_FILE,
  loadUsageLedger,
  readUsageLedger,
  serializeLedger,
  writeLedger,
} from "./ledger.js";
export { costOf, defaultPrices, isFreeSeat, priceFor } from "./prices.js";
export type { PromptInput, SkillChoice } from "./prompt.js";
export { assemblePrompt } from "./prompt.js";
export { runDebate } from "./run.js";
export type { SentCall } from "./session.js";
export {
  callWithSession,
  minSharedPrefix,
  readSeatSession,
  resumableAdapters,
  resumeHeader,
  resumesSession,
  resumeText,
  writeSeatSession,
} from "./session.js";
export type {
  AdapterFactory,
  BudgetStop,
  Phase,
  RunEvent,
  RunOptions,
  RunSummary,
  SkillProblemReport,
  StepRef,
} from "./types.js";
export type { PastCall } from "./usage.js";
export { callUsage, defaultExpectedOutputTokens, estimateCallCost } from "./usage.js";
