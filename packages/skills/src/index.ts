// @debatekit/skills: Skill packs for debate seats: manifest loading, trigger matching, token budgets.
// The public API is added by the issues that build this package; see README.md.
export {};
