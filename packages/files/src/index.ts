// @debatekit/files: The debate folder on disk: parse and serialize debate.md and arguments, atomic step commits, the journal, the lock.
// The public API is added by the issues that build this package; see README.md.
export {};
