// @debatekit/files: the debate folder on disk. Reads and writes files; decides no debate rule (that is core).
export type { ArgumentIndex } from "./argument-index.js";
export {
  ARGUMENT_INDEX_FILE,
  readArgumentIndex,
  refreshArgumentIndex,
  writeArgumentIndex,
} from "./argument-index.js";
export type { BeforeWrite } from "./atomic.js";
export { type GroupFile, syncDirectory, writeFileAtomic, writeFilesAtomic } from "./atomic.js";
export type { CommitOptions } from "./commit.js";
export { commitStep, serializeScores, writeDerivedFiles } from "./commit.js";
export type { Consent, FolderPrograms, SeatProgram } from "./consent.js";
export {
  allowancesFile,
  allowFolder,
  assertAllowed,
  denyFolder,
  endpointCovers,
  isProgramAllowed,
  loadConsent,
  programsOfFrontmatter,
  readFolderPrograms,
  seatsIn,
  serversOfSeat,
  shellQuote,
  unallowedPrograms,
  whatItWouldDo,
} from "./consent.js";
export { createDebateFolder } from "./create.js";
export type { ArgumentDocument, DebateDocument } from "./documents.js";
export {
  parseArgumentFile,
  parseDebateFile,
  serializeArgumentFile,
  serializeDebateFile,
  updateDebateFile,
} from "./documents.js";
export type { FrontmatterDocument, FrontmatterStyle } from "./frontmatter.js";
export { joinFrontmatter, splitFrontmatter, updateFrontmatter } from "./frontmatter.js";
export type { JournalWriteOptions } from "./journal.js";
export {
  journalFileName,
  journalStepPrefix,
  readJournal,
  readJournalPrompts,
  writeJournalEntry,
} from "./journal.js";
export type { LockHolder, LockOptions } from "./lock.js";
export { acquireLock, readLockHolder } from "./lock.js";
export { parseMotion } from "./motion.js";
export { resolveInside } from "./paths.js";
export type { DebateFolder } from "./read.js";
export { readArgument, readDebateFolder } from "./read.js";
export type { ResetOptions, ResetResult } from "./reset.js";
export { resetDebateFolder } from "./reset.js";
export { journalSecrets, literalSeatSecretErrors } from "./secrets.js";
export { sleepUnlessAborted } from "./sleep.js";
export { removeStaleTempFiles, TEMP_FILE_MAX_AGE_MS } from "./temp-files.js";
export { MAX_JSON_BYTES, MAX_MARKDOWN_BYTES, readTextInside } from "./text-file.js";
