// Alone in its module (`@debatekit/skills/budget`): a command's help quotes it without loading the
// tokenizer and the matcher.

/** A seat's skill budget when debate.md sets none (the schema's default for `skills.budget_tokens`). */
export const DEFAULT_SKILL_BUDGET_TOKENS = 4000;
