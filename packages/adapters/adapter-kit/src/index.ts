// @debatekit/adapter-kit: Process handling shared by debatekit adapters: spawn without a shell, stdin prompts, timeouts, process-group kill, redaction.
// The public API is added by the issues that build this package; see README.md.
export {};
