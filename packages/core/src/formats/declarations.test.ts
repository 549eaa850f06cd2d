import { describe, expect, it } from "vitest";
import { formatDeclarations } from "./declarations.js";
import { formalFormat } from "./formal/format.js";
import type { FormatDeclaration } from "./format.js";
import { formatList, registerFormat } from "./registry.js";

/** The declared part of a format or a declaration, and nothing else. */
function declared(f: FormatDeclaration) {
  return {
    name: f.name,
    roles: f.roles,
    unit: f.unit,
    tournament: f.tournament,
    newOptions: f.newOptions,
    importers: Object.fromEntries(
      Object.entries(f.importers ?? {}).map(([source, { description }]) => [source, description]),
    ),
  };
}

describe("the formats' declarations", () => {
  it("say of every built-in what its format says, in the registry's order", () => {
    expect(formatDeclarations().map(declared)).toEqual(formatList().map(declared));
  });

  it("follow the registry: a format registered later is declared too, after the built-ins", () => {
    const outside = { ...formalFormat, name: "declared-outside" };
    expect(registerFormat(outside).ok).toBe(true);
    expect(formatDeclarations().map((f) => f.name)).toEqual(formatList().map((f) => f.name));
    expect(formatDeclarations().at(-1)).toBe(outside);
  });
});
