// @debatekit/skills: skill packs for debate seats: manifest loading, trigger matching, token budgets.

export { annotateCodeReferences, CODE_REFERENCE_WORDS, findCodeReferences } from "./code-refs.js";
export { clearSkillCache, type LoadLimits, type LoadResult, loadSkills } from "./load.js";
export {
  ALWAYS_POINTS,
  appliesToRole,
  CONCEPT_POINTS,
  type ConceptHit,
  conceptHits,
  isAlwaysOn,
  MAX_EXTRA_OCCURRENCES,
  matchSkills,
  POINTS_PER_WORD,
  RANK_THRESHOLD,
  type SeatQuery,
  type SkillMatch,
  STEM_SUPPORT,
  scoreSkills,
  type TriggerHit,
} from "./match.js";
export {
  type LabelledMotion,
  type MatchMiss,
  type MatchQuality,
  measureMatching,
} from "./measure.js";
export { normalizeText } from "./normalize.js";
export {
  BM25_PARAMS,
  FIELD_BOOSTS,
  type RankedMatch,
  type RankField,
  type TermHit,
} from "./rank.js";
export { builtinSkillsRoot, defaultSkillRoots } from "./roots.js";
export {
  type ChosenSkill,
  DEFAULT_SKILL_BUDGET_TOKENS,
  type DroppedSkill,
  MIN_BUDGET_CUT_TOKENS,
  renderSkillBlock,
  type Selection,
  type SkillQuery,
  selectSkills,
} from "./select.js";
export { rewriteSenses } from "./senses.js";
export { type CutText, countTokens, cutToTokens, TOKEN_ENCODING } from "./tokens.js";
export type { LoadedSkill, SkillProblem, SkillProblemCode } from "./types.js";
