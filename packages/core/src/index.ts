// @debatekit/core: pure debate logic (no fs, no process, no clock, no env). See README.md.

export { parseJudgeAnswer, parseSideAnswer } from "./answers.js";
export type { ClipOptions } from "./clip.js";
export { clipText, clipTextEnd } from "./clip.js";
export type { DebatekitErrorOptions } from "./errors.js";
export { DebatekitError, fail, formatRuleErrors, ok, quote, ruleError } from "./errors.js";
export { extractJson, jsonNestingDepth } from "./extract-json.js";
export { crossfireFormat } from "./formats/crossfire/format.js";
export { POINT_ID, REQUIRED_CATEGORIES } from "./formats/crossfire/rules.js";
export { SUMMARY_MAX_TOKENS, SUMMARY_MIN_TOKENS, summaryTokens } from "./formats/crossfire/summary.js";
export { formalFormat } from "./formats/formal/format.js";
export {
  combinePanel,
  formalPanels,
  judgePrompt,
  panelFigures,
  parseJudge,
  reliabilityFrom,
} from "./formats/formal/judges.js";
export { applyArguments, applyJudgment, checkPhase, nextAction } from "./formats/formal/machine.js";
export type {
  Format,
  FormatRecord,
  FormatStep,
  ImportedDebate,
  ImportInit,
  NewDebateInit,
  NewDebateOptions,
  RecordKind,
  SeatAsk,
  SeatFailure,
  Standing,
  StepMeta,
} from "./formats/format.js";
export { defineFormat } from "./formats/format.js";
export { formatOf, formatOfState, formats, journalStepKey, REPORTING_PHASE } from "./formats/registry.js";
export type { DecisionOutcome } from "./formats/review/decision.js";
export { choiceEffect, decide, parseDecision } from "./formats/review/decision.js";
export type { EvidenceSources, VerifiedFindings } from "./formats/review/evidence.js";
export { artifactFileLines, evidenceHolds, verifyFindings } from "./formats/review/evidence.js";
export {
  agreed,
  converged,
  fingerprintFindings,
  newSevereFindings,
  sameFinding,
} from "./formats/review/fingerprint.js";
export { degradedReview, reviewDegraded, reviewFormat } from "./formats/review/format.js";
export type { GateRun, ResolvedGatePolicy } from "./formats/review/gate.js";
export { evaluateGate, resolveGatePolicy } from "./formats/review/gate.js";
export type { Intensity } from "./formats/review/guards.js";
export { budgetForCall, INTENSITY_PRESETS, resolveGuards } from "./formats/review/guards.js";
export { combineJudgments, reviewPanels, TIE_ORDER } from "./formats/review/judges.js";
export type { ClassifiedFinding } from "./formats/review/judgment.js";
export { checkRecommendation, checkReviewJudgment, classify } from "./formats/review/judgment.js";
export type { CritiqueForm } from "./formats/review/parse.js";
export { parseCritique, parseMarkdownCritique, parseNativeCritique } from "./formats/review/parse.js";
export type { AuthorWork, ReviewRound, RoundEnd, StopReason } from "./formats/review/round.js";
export {
  acceptCritique,
  acceptJudgment,
  buildDecision,
  critiqueContext,
  endRound,
  renderReviewSummary,
} from "./formats/review/round.js";
export { repositoryFiles, roundsOf } from "./formats/review/state.js";
export type { ReviewTarget } from "./formats/review/target.js";
export { detectTarget, splitMixed } from "./formats/review/target.js";
export { defaultAgentTemplates } from "./generated/agents.js";
export { escapeMermaidLabel, renderArgumentGraph } from "./graph.js";
export { ARGUMENT_ID_PATTERN, argumentId, expectedIds, parseArgumentId } from "./ids.js";
export {
  blindCrossfireText,
  blindFormalText,
  unblindFormalText,
  unblindJudgment,
  unblindVerdict,
} from "./judging/blind.js";
export type { Vote } from "./judging/combine.js";
export { combineRescores, combineScores, judgeVote, majority, median, recentre } from "./judging/combine.js";
export type { Ballot, JudgingConfig, Label } from "./judging/panel.js";
export {
  ballotOf,
  ballotsOf,
  defaultQuorum,
  FALLBACK_ROLE,
  firstSide,
  isJudgeRole,
  judgeRole,
  judgingOf,
  labelsFor,
  selfJudging,
} from "./judging/panel.js";
export { flipRate, krippendorffAlpha, meanDeviation } from "./judging/reliability.js";
export {
  MAX_JSON_CANDIDATES,
  MAX_JSON_DEPTH,
  MAX_MODEL_OUTPUT_CHARS,
  MAX_RESCORE_DELTA,
  SCORE_EPSILON,
  ZERO_SUM_TOLERANCE,
} from "./limits.js";
export type { BuildPromptOptions } from "./prompt.js";
export { buildPrompt, fillTemplate } from "./prompt.js";
export type { ArgumentPlacement } from "./render/argument.js";
export { escapeBlock, renderArgument, renderArgumentBody } from "./render/argument.js";
export { checkSideArguments, requiredArgumentCount } from "./rules/argument.js";
export { checkCommittedState } from "./rules/committed.js";
export { checkJudgment } from "./rules/judgment.js";
export { cumulativeScores, recordJudgment, roundScore } from "./scoring.js";
export type { LabelledSecret, SecretSpan } from "./secrets.js";
export {
  findSecretSpans,
  hideUrlCredentials,
  looksRandom,
  MIN_SECRET_VALUE_LENGTH,
  REDACTED,
  redactMessage,
  removeSecrets,
  replaceSecretSpans,
  secretEnvValues,
  URL_PASSWORD_MARK,
} from "./secrets.js";
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
