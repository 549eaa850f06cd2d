// @debatekit/runner: Runs and resumes debates: next action, seats in parallel, journal, validation, commit.
// The public API is added by the issues that build this package; see README.md.
export {};
