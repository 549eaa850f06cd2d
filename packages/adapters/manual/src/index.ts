export { createAdapter } from "./adapter.js";
export { inboxDir, promptsDir, stepStem } from "./names.js";
