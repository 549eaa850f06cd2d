import type { Price, SeatConfig } from "@debatekit/schema";

/**
 * List prices (US dollars per million tokens) of a few API models, as their vendors publish them
 * for standard (non-batch) use; `cached_input_per_mtok` is the price of a prompt-cache read.
 * Used only when a seat sets no `price:` and its CLI reports no cost. A model that is in no row
 * has no price: its cost is `unknown`, never guessed. Prices change: a seat's `price:` wins.
 */
export const defaultPrices: Readonly<Record<string, Price>> = {
  // Anthropic (claude-*: the CLI reports its own cost; these serve opencode, acp and http seats).
  "claude-opus-4-1": { input_per_mtok: 15, cached_input_per_mtok: 1.5, output_per_mtok: 75 },
  "claude-sonnet-4-5": { input_per_mtok: 3, cached_input_per_mtok: 0.3, output_per_mtok: 15 },
  "claude-haiku-4-5": { input_per_mtok: 1, cached_input_per_mtok: 0.1, output_per_mtok: 5 },
  // OpenAI.
  "gpt-5": { input_per_mtok: 1.25, cached_input_per_mtok: 0.125, output_per_mtok: 10 },
  "gpt-5-mini": { input_per_mtok: 0.25, cached_input_per_mtok: 0.025, output_per_mtok: 2 },
  // Google (prompts up to 200k tokens).
  "gemini-2.5-pro": { input_per_mtok: 1.25, cached_input_per_mtok: 0.31, output_per_mtok: 10 },
  "gemini-2.5-flash": { input_per_mtok: 0.3, cached_input_per_mtok: 0.075, output_per_mtok: 2.5 },
};

/** Adapters that call no model: their calls cost nothing. */
const freeAdapters = new Set(["replay", "manual"]);

/** True for seats that call no model (recorded answers, a person). */
export function isFreeSeat(seat: Pick<SeatConfig, "adapter">): boolean {
  return freeAdapters.has(seat.adapter);
}

/**
 * The price of a seat's model: the seat's own `price:`, else the table's row for the model
 * (exact name, or a dated/provider-prefixed name of it: `anthropic/claude-sonnet-4-5-20250929`),
 * else undefined (cost unknown).
 */
export function priceFor(
  seat: Pick<SeatConfig, "price">,
  model: string | undefined,
  table: Readonly<Record<string, Price>> = defaultPrices,
): Price | undefined {
  if (seat.price) return seat.price;
  if (!model) return undefined;
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  if (table[name]) return table[name];
  // The longest row the name extends with a version or date suffix (`gpt-5` must not price `gpt-5-mini`).
  const rows = Object.keys(table)
    .filter((key) => name.startsWith(`${key}-`) && /^-\d/.test(name.slice(key.length)))
    .sort((a, b) => b.length - a.length);
  return rows[0] ? table[rows[0]] : undefined;
}

/** What `tokens` cost at `price`, in US dollars (cached input at its own price when there is one). */
export function costOf(tokens: { input: number; cached: number; output: number }, price: Price): number {
  const cached = Math.min(tokens.cached, tokens.input);
  const usd =
    ((tokens.input - cached) * price.input_per_mtok +
      cached * (price.cached_input_per_mtok ?? price.input_per_mtok) +
      tokens.output * price.output_per_mtok) /
    1e6;
  // Micro-dollar precision keeps the files stable and is far below any provider's billing unit.
  return Math.round(usd * 1e6) / 1e6;
}
