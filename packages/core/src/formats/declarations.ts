import { crossfireDeclaration } from "./crossfire/declaration.js";
import { formalDeclaration } from "./formal/declaration.js";
import type { FormatDeclaration } from "./format.js";
import { reviewDeclaration } from "./review/declaration.js";

// The registry's light twin: what each registered format declares, with none of its rules loaded
// (no validators, no machine). The registry adds every format it registers here too, so a reader
// of this table sees the same formats in the same order.

// Typed by hand, so a name's declaration stays a plain FormatDeclaration in the API (not its literal data).
const builtinDeclarations: {
  formal: FormatDeclaration;
  crossfire: FormatDeclaration;
  review: FormatDeclaration;
} = {
  formal: formalDeclaration,
  crossfire: crossfireDeclaration,
  review: reviewDeclaration,
};

/** The name of a format that ships with core. */
export type BuiltinFormatName = keyof typeof builtinDeclarations;

/** The format of a debate.md without a `format` key, and of `debate new` without `--format`. */
export const DEFAULT_FORMAT_NAME: BuiltinFormatName = formalDeclaration.name;

const table: Record<string, FormatDeclaration> = Object.assign(Object.create(null), builtinDeclarations);

/** What every registered format declares, built-ins first: read it when you need it, never copy it at import time. */
export function formatDeclarations(): readonly FormatDeclaration[] {
  return Object.values(table);
}

/** Adds a registered format's declaration (the registry calls it; the format itself is one). */
export function addDeclaration(format: FormatDeclaration): void {
  table[format.name] = format;
}
