import { RESERVED_OPTION_NAMES } from "@debatekit/core";
import { formatDeclarations } from "@debatekit/core/declarations";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { declareNew } from "./commands/new.impl.js";
import type { CliIO } from "./output.js";

// A format's roles become `debate new --<role>` and its length `--<flag>`; core refuses those that
// would be one of new's own options, from its RESERVED_OPTION_NAMES. This keeps that list whole.
describe("the option names a format may not take", () => {
  it("hold every option of `debate new` that is not a format's seat or length", () => {
    const command = new Command("new");
    declareNew(command, {} as CliIO);
    const fromFormats = new Set(
      formatDeclarations().flatMap((f) => [
        ...f.newOptions.seats.map((s) => s.role),
        f.newOptions.length.flag,
      ]),
    );
    const own = command.options.map((o) => o.long!.slice(2)).filter((name) => !fromFormats.has(name));
    expect(own.length).toBeGreaterThan(5);
    for (const name of own) expect(RESERVED_OPTION_NAMES, name).toContain(name);
  });
});
