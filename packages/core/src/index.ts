// @debatekit/core: pure debate logic (no fs, no process, no clock, no env). See README.md.

export type { ClipOptions } from "./clip.js";
export { clipText, clipTextEnd } from "./clip.js";
export type { DebatekitErrorOptions } from "./errors.js";
export { DebatekitError, fail, formatRuleErrors, ok, quote, ruleError } from "./errors.js";
export { extractJson, jsonNestingDepth } from "./extract-json.js";
export { blindCrossfireText, unblindVerdict } from "./formats/crossfire/blind.js";
export { crossfireFormat } from "./formats/crossfire/format.js";
export { POINT_ID, REQUIRED_CATEGORIES } from "./formats/crossfire/rules.js";
export { SUMMARY_MAX_TOKENS, SUMMARY_MIN_TOKENS, summaryTokens } from "./formats/crossfire/summary.js";
export { formatDeclarations } from "./formats/declarations.js";
export { parseJudgeAnswer, parseSideAnswer } from "./formats/formal/answers.js";
export { blindFormalText, unblindFormalText, unblindJudgment } from "./formats/formal/blind.js";
export { formalFormat } from "./formats/formal/format.js";
export { escapeMermaidLabel, renderArgumentGraph } from "./formats/formal/graph.js";
export { ARGUMENT_ID_PATTERN, argumentId, expectedIds, parseArgumentId } from "./formats/formal/ids.js";
export {
  combinePanel,
  formalPanels,
  judgePrompt,
  panelFigures,
  parseJudge,
  reliabilityFrom,
} from "./formats/formal/judges.js";
export { applyArguments, applyJudgment, checkPhase, nextAction } from "./formats/formal/machine.js";
export { buildPrompt } from "./formats/formal/prompt.js";
export type { ArgumentPlacement } from "./formats/formal/render.js";
export { renderArgument, renderArgumentBody } from "./formats/formal/render.js";
export { checkSideArguments, requiredArgumentCount } from "./formats/formal/rules/argument.js";
export { checkCommittedState } from "./formats/formal/rules/committed.js";
export { checkJudgment } from "./formats/formal/rules/judgment.js";
export { cumulativeScores, recordJudgment } from "./formats/formal/scoring.js";
export { otherRole, roleOfSide, sideCode } from "./formats/formal/sides.js";
export type {
  AnyFormat,
  AwaitedDecision,
  Format,
  FormatDeclaration,
  FormatStep,
  ImportedDebate,
  ImportInit,
  NewDebateInit,
  NewDebateOptions,
  ProgressUnit,
  RecordKind,
  ResetPlan,
  ResetSupport,
  SeatAsk,
  SeatFailure,
  SeatKind,
  SeatSpec,
  Standing,
  StepMeta,
  TournamentSides,
} from "./formats/format.js";
export { defineFormat, FORMAT_SPEC_VERSION, RESERVED_OPTION_NAMES } from "./formats/format.js";
export type { BuiltinFormatName } from "./formats/registry.js";
export {
  checkFormat,
  DEFAULT_FORMAT_NAME,
  FORMAT_NAME_PATTERN,
  findFormat,
  formatList,
  formatNames,
  formatOf,
  formatOfState,
  formats,
  journalStepKey,
  REPORTING_PHASE,
  ROLE_NAME_PATTERN,
  registerFormat,
} from "./formats/registry.js";
export type { DecisionOutcome } from "./formats/review/decision.js";
export { choiceEffect, decide, parseDecision } from "./formats/review/decision.js";
export { degradedReview, reviewDegraded } from "./formats/review/degraded.js";
export type { EvidenceSources, VerifiedFindings } from "./formats/review/evidence.js";
export {
  artifactFileLines,
  evidenceHolds,
  isCommentLine,
  unquoteGitPath,
  verifyFindings,
} from "./formats/review/evidence.js";
export {
  agreed,
  converged,
  fingerprintFindings,
  newSevereFindings,
  sameFinding,
} from "./formats/review/fingerprint.js";
export { reviewFormat } from "./formats/review/format.js";
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
export { journalOutcome } from "./journal-outcome.js";
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
  isSelfJudging,
  judgeRole,
  judgingOf,
  labelsFor,
  seatWords,
  selfJudging,
} from "./judging/panel.js";
export { flipRate, krippendorffAlpha, meanDeviation } from "./judging/reliability.js";
export { roundScore } from "./judging/round.js";
export {
  MAX_JSON_CANDIDATES,
  MAX_JSON_DEPTH,
  MAX_MODEL_OUTPUT_CHARS,
  MAX_RESCORE_DELTA,
  SCORE_EPSILON,
  ZERO_SUM_TOLERANCE,
} from "./limits.js";
export type { BuildPromptOptions } from "./prompt/options.js";
export { fillTemplate } from "./prompt/template.js";
export { escapeBlock, singleLine } from "./render/markdown.js";
export type {
  ArtifactFile,
  ArtifactLine,
  ArtifactNote,
  ChartPoint,
  FormatReport,
  GraphEdge,
  GraphNode,
  JudgeNote,
  RankedArgument,
  ReportArtifact,
  ReportSide,
  ReportTable,
  StandingChart,
  TranscriptEntry,
  TranscriptJudgement,
  TranscriptPiece,
  TranscriptSection,
  TurningPoint,
} from "./report-model.js";
export { seatConfigs } from "./seats.js";
export type { EnvSecret, LabelledSecret, SecretSpan } from "./secrets.js";
export {
  findSecretSpans,
  hideUrlCredentials,
  looksRandom,
  MIN_SECRET_VALUE_LENGTH,
  REDACTED,
  redactMessage,
  removeSecrets,
  replaceSecretSpans,
  seatSecretValues,
  secretEnvValues,
  URL_PASSWORD_MARK,
  urlCredentials,
} from "./secrets.js";
export type {
  AgentTemplate,
  AnyState,
  ArgumentRecord,
  DebaterRole,
  DebateState,
  FormatRecord,
  FrontmatterBase,
  Motion,
  NextAction,
  Result,
  RuleError,
  SeatRole,
  SideCode,
} from "./types.js";
