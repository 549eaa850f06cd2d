import type { Adapter, AdapterContext } from "@debatekit/adapter-kit";
import type { SeatConfig } from "@debatekit/schema";
import type { AdapterFactory } from "./types.js";

const loaded = new Map<string, Promise<AdapterFactory>>();

async function importFactory(name: string): Promise<AdapterFactory> {
  // Core loads here, not at import: `builtinAdapters` alone (help, completion) needs none of it.
  const { DebatekitError } = await import("@debatekit/core");
  const pkg = `@debatekit/adapter-${name}`;
  let mod: { createAdapter?: unknown };
  try {
    mod = (await import(pkg)) as { createAdapter?: unknown };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND";
    throw new DebatekitError(
      "ADAPTER_MISSING",
      missing
        ? `the \`${name}\` adapter is not installed: add the package ${pkg}`
        : `the \`${name}\` adapter (${pkg}) failed to load: ${(error as Error).message}`,
      { field: "seats", cause: error },
    );
  }
  if (typeof mod.createAdapter !== "function") {
    throw new DebatekitError("ADAPTER_INVALID", `${pkg} does not export createAdapter(seat, context)`, {
      field: "seats",
    });
  }
  return mod.createAdapter as AdapterFactory;
}

/** Creates the adapter for a seat: from `overrides` when given, else from the package `@debatekit/adapter-<name>`. */
export async function createSeatAdapter(
  seat: SeatConfig,
  context: AdapterContext,
  overrides?: Record<string, AdapterFactory>,
): Promise<Adapter> {
  const override = overrides?.[seat.adapter];
  if (override) return override(seat, context);
  let factory = loaded.get(seat.adapter);
  if (!factory) {
    factory = importFactory(seat.adapter);
    loaded.set(seat.adapter, factory);
    // A failed import is not cached: the package may be installed before the next run.
    factory.catch(() => loaded.delete(seat.adapter));
  }
  return (await factory)(seat, context);
}

/** The adapters shipped with debatekit (each is the package `@debatekit/adapter-<name>`). */
export const builtinAdapters = [
  "claude",
  "codex",
  "gemini",
  "opencode",
  "copilot",
  "qwen",
  "kilo",
  "acp",
  "http",
  "manual",
  "replay",
];

/** True when a seat could use the adapter `name`: its package `@debatekit/adapter-<name>` resolves. */
export function isAdapterInstalled(name: string): boolean {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return false;
  try {
    import.meta.resolve(`@debatekit/adapter-${name}`);
    return true;
  } catch {
    return false;
  }
}
