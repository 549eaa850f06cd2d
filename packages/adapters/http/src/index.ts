export type { HttpAnswer } from "./adapter.js";
export {
  buildRequestBody,
  createAdapter,
  defaultBaseUrl,
  endpointUrl,
  modelIds,
  readHttpAnswer,
} from "./adapter.js";
export type { ParsedCompletion } from "./parse.js";
export {
  describeHttpError,
  describeNetworkError,
  errorMessageOf,
  parseCompletionBody,
  parseCompletionJson,
  parseCompletionSse,
  sseDataPayloads,
  statusForHttpError,
} from "./parse.js";
