// @debatekit/core: Pure debate logic: formats as state machines, argument and judgment rules, scoring, prompts, the argument graph.
// The public API is added by the issues that build this package; see README.md.
export {};
