// @debatekit/tournament: many debates as one folder, run locally or on a queue, rated with intervals.
export type { Match, NewTournamentInit, Tournament } from "./folder.js";
export {
  createTournament,
  DEBATES_DIR,
  pairMatches,
  parseTournamentFile,
  readTournament,
  serializeTournamentFile,
  sideRoles,
  TOURNAMENT_FILE,
  writeTournament,
} from "./folder.js";
export type { Leaderboard, Tally } from "./leaderboard.js";
export { computeLeaderboard, gamesOf } from "./leaderboard.js";
export type { Gate, GateClock, ProviderLimit } from "./limiter.js";
export {
  createGate,
  createProviderGates,
  createRedisGates,
  gatedAdapter,
  pauseOnRateLimit,
  RATE_LIMITED,
  retryAfterMs,
} from "./limiter.js";
export type { TournamentMotion } from "./motions.js";
export { parseMotions } from "./motions.js";
export type { PlanLine, PlanOptions, TournamentPlan } from "./plan.js";
export { planTournament } from "./plan.js";
export type {
  JobPartsCpu,
  QueuedDebateEnd,
  QueuedDebatesOptions,
  QueueRunOptions,
  WorkerEvent,
  WorkerOptions,
} from "./queue.js";
export {
  DEBATE_QUEUE,
  debateJobId,
  enqueueTournament,
  runQueuedDebates,
  startWorker,
  TOURNAMENT_QUEUE,
} from "./queue.js";
export type { FitOptions, Game, RatedPlayer, Ratings } from "./ratings.js";
export { fitBradleyTerry, quantile, rateWithIntervals, seededRandom, winProbability } from "./ratings.js";
export type { QueueConnection } from "./redis.js";
export { openQueueConnection, parseQueueUrl, QUEUE_CONNECT_TIMEOUT_MS, queueUrlWarnings } from "./redis.js";
export { renderLeaderboardHtml, renderLeaderboardMarkdown, renderRatingChart } from "./render.js";
export { LEADERBOARD_FILES, writeTournamentReport } from "./report.js";
export type { FailureRecord, MatchResult, Spend } from "./results.js";
export {
  describeSpend,
  FAILURES_DIR,
  readMatchResult,
  readResults,
  recordFailure,
  spendOf,
} from "./results.js";
export type { TournamentEvent, TournamentRunOptions, TournamentRunSummary } from "./run-local.js";
export { needsRun, runTournament } from "./run-local.js";
export type { FolderSnapshot } from "./snapshot.js";
export { readFolderSnapshot, writeFolderSnapshot } from "./snapshot.js";
export { parseEntrant, parseEntrants, REPLAY_FILE, slugPart } from "./spec.js";
export type { WorkerSeats } from "./worker-seats.js";
export { DEFAULT_WORKER_SEATS } from "./worker-seats.js";
