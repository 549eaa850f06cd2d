export * from "./debate-answers.js";
export * from "./server.js";
