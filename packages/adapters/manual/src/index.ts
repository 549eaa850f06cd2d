export { createAdapter } from "./adapter.js";
export { inboxDir, parseStepStem, promptsDir, stepStem } from "./names.js";
