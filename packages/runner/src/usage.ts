import type { AdapterResult, CallUsage, Price, SeatConfig } from "@debatekit/schema";
import { countTokens } from "@debatekit/skills";
import { costOf, isFreeSeat, priceFor } from "./prices.js";

/** What one seat call consumed, from what it reported, else estimated; priced when possible. */
export function callUsage(input: {
  seat: SeatConfig;
  /** The text sent to the seat (only the new part when its session was resumed). */
  sent: string;
  result: AdapterResult;
  /** The model the seat was asked for (the answer's own `model` wins). */
  model?: string;
  session?: CallUsage["session"];
}): CallUsage {
  const { seat, sent, result } = input;
  const session = input.session ? { session: input.session } : {};
  // Nothing reached a model: a program that did not start, a person who has not answered.
  if (isFreeSeat(seat) || result.status === "unavailable" || result.status === "pending") {
    return {
      input_tokens: 0,
      cached_input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      tokens: "reported",
      cost: "free",
      ...session,
    };
  }
  const promptTokens = countTokens(sent);
  const reported = result.usage;
  const hasTokens = reported?.inputTokens !== undefined && reported.outputTokens !== undefined;
  const tokens = {
    input: reported?.inputTokens ?? promptTokens,
    cached: reported?.cachedInputTokens ?? 0,
    output: reported?.outputTokens ?? (result.text ? countTokens(result.text) : 0),
  };
  const price = priceFor(seat, result.model ?? input.model);
  const cost: Pick<CallUsage, "cost" | "cost_usd"> =
    reported?.costUsd !== undefined
      ? { cost: "reported", cost_usd: reported.costUsd }
      : price
        ? { cost: "priced", cost_usd: costOf(tokens, price) }
        : { cost: "unknown" };
  return {
    input_tokens: tokens.input,
    cached_input_tokens: Math.min(tokens.cached, tokens.input),
    output_tokens: tokens.output,
    ...cost,
    tokens: hasTokens ? "reported" : "estimated",
    prompt_tokens: promptTokens,
    ...session,
  };
}

/** Output tokens assumed for a seat's next call before it has answered once. */
export const defaultExpectedOutputTokens = 1000;

/** One earlier call of the seat, as the estimate needs it. */
export interface PastCall {
  usage: CallUsage;
}

/**
 * The estimated cost in US dollars of sending `prompt` to `seat`, or undefined when nothing is
 * known to price it. Input is priced uncached (the cache may miss); output is the seat's largest
 * answer so far (else {@link defaultExpectedOutputTokens}). Without a price, the rate the seat's
 * CLI reported for its earlier calls (cost per token) stands in.
 */
export function estimateCallCost(input: {
  seat: SeatConfig;
  prompt: string;
  model?: string;
  past: readonly PastCall[];
  price?: Price;
}): number | undefined {
  const { seat, past } = input;
  if (isFreeSeat(seat)) return 0;
  const promptTokens = countTokens(input.prompt);
  const output =
    past.reduce((max, c) => Math.max(max, c.usage.output_tokens), 0) || defaultExpectedOutputTokens;
  const price = input.price ?? priceFor(seat, input.model);
  if (price) return costOf({ input: promptTokens, cached: 0, output }, price);
  const known = past.filter((c) => c.usage.cost === "reported" && c.usage.cost_usd !== undefined);
  const tokens = known.reduce((n, c) => n + c.usage.input_tokens + c.usage.output_tokens, 0);
  if (tokens === 0) return undefined;
  const perToken = known.reduce((n, c) => n + (c.usage.cost_usd ?? 0), 0) / tokens;
  return Math.round(perToken * (promptTokens + output) * 1e6) / 1e6;
}
