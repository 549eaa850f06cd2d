import { describe, expect, it } from "vitest";
import { freshState } from "../test-helpers/states.js";
import { formalFormat } from "./formal/format.js";
import { FORMAT_SPEC_VERSION } from "./format.js";
import {
  checkFormat,
  DEFAULT_FORMAT_NAME,
  findFormat,
  formatList,
  formatNames,
  formatOf,
  formats,
  journalStepKey,
  registerFormat,
} from "./registry.js";

describe("the format registry", () => {
  it("finds a format by debate.md's `format`, formal when absent", () => {
    expect(formatOf({ format: "formal" })).toEqual({ ok: true, value: formalFormat });
    expect(formatOf({ debate_id: "x" })).toEqual({ ok: true, value: formalFormat });
    expect(Object.keys(formats)).toContain("formal");
  });

  it("names the field and the known formats for an unknown one", () => {
    const found = formatOf({ format: "toString" });
    expect(found.ok).toBe(false);
    expect(!found.ok && found.errors[0]).toMatchObject({ code: "FORMAT_UNKNOWN", path: "format" });
    expect(!found.ok && found.errors[0]!.message).toContain("expected one of formal");
  });

  it("gives every phase that asks seats a journal step key, and none to others", () => {
    expect(journalStepKey("awaiting_arguments")).toBe("1-arguments");
    expect(journalStepKey("awaiting_judgment")).toBe("2-judgment");
    expect(journalStepKey("complete")).toBeUndefined();
    expect(journalStepKey("__proto__")).toBeUndefined();
  });
});

describe("registering a format from outside", () => {
  const outside = { ...formalFormat, name: "toy-outside", phases: { awaiting_toy: "1-toy" } };

  it("lists the built-ins first, then adds a checked format that debate.md can name", () => {
    expect(formatNames()).toEqual(["formal", "crossfire", "review"]);
    expect(DEFAULT_FORMAT_NAME).toBe("formal");
    expect(findFormat("toy-outside")).toBeUndefined();
    expect(journalStepKey("awaiting_toy")).toBeUndefined();
    expect(registerFormat(outside)).toEqual({ ok: true, value: outside });
    expect(formatNames()).toEqual(["formal", "crossfire", "review", "toy-outside"]);
    expect(formatList().at(-1)).toBe(outside);
    expect(formats["toy-outside"]).toBe(outside);
    expect(formatOf({ format: "toy-outside" })).toEqual({ ok: true, value: outside });
    // The journal's step keys are rebuilt, so a step of the new format sorts like a built-in's.
    expect(journalStepKey("awaiting_toy")).toBe("1-toy");
  });

  it("refuses a second format of the same name, and a built-in's name", () => {
    for (const name of ["toy-outside", "crossfire"]) {
      const again = registerFormat({ ...formalFormat, name });
      expect(again.ok).toBe(false);
      expect(!again.ok && again.errors[0]).toMatchObject({ code: "FORMAT_NAME_TAKEN", path: "name" });
    }
    expect(findFormat("crossfire")?.name).toBe("crossfire");
  });

  it("refuses what is not a format, naming every missing member", () => {
    expect(checkFormat(null)).toMatchObject({ ok: false, errors: [{ code: "FORMAT_INVALID", path: "" }] });
    const { next: _next, unit: _unit, ...partial } = formalFormat;
    const bad = registerFormat({ ...partial, name: "Bad Name" });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.map((e) => e.path)).toEqual(["name", "next", "unit"]);
    expect(!bad.ok && bad.errors.every((e) => e.code === "FORMAT_INVALID")).toBe(true);
    expect(formatNames()).not.toContain("Bad Name");
  });
});

describe("what a format may call its roles, and which spec it was written for", () => {
  const base = { ...formalFormat, phases: {} };
  const withRoles = (name: string, role: string) => ({
    ...base,
    name,
    roles: [...formalFormat.roles, { role, kind: "debater", description: "asks" }],
    newOptions: { ...formalFormat.newOptions, seats: [{ role, description: "asks" }] },
  });

  it("refuses a role that is one of `debate new`'s own options, naming the role and the option", () => {
    for (const role of ["slug", "dir", "json", "scope", "effort"]) {
      const checked = checkFormat(withRoles("named-like-an-option", role));
      expect(checked.ok, role).toBe(false);
      expect(!checked.ok && checked.errors[0]).toMatchObject({ code: "FORMAT_ROLE_RESERVED", path: "roles" });
      expect(!checked.ok && checked.errors[0]!.message).toContain(`debate new --${role}`);
    }
  });

  it("refuses a role that is no flag name, and a length flag that is an option", () => {
    expect(checkFormat(withRoles("bad-role", "Judge Two")).ok).toBe(false);
    const flagged = {
      ...base,
      name: "flagged",
      newOptions: { ...base.newOptions, length: { ...base.newOptions.length, flag: "json" } },
    };
    const checked = checkFormat(flagged);
    expect(!checked.ok && checked.errors[0]).toMatchObject({
      code: "FORMAT_ROLE_RESERVED",
      path: "newOptions.length.flag",
    });
  });

  it("refuses a role that is another registered format's length flag, and registers nothing", () => {
    const before = formatNames().length;
    const clash = registerFormat(withRoles("clashing-rounds", "rounds"));
    expect(!clash.ok && clash.errors[0]!.message).toContain('format "crossfire"\'s length option');
    expect(formatNames().length).toBe(before);
  });

  it("loads a format without a spec version as version 1, and refuses another version naming both", () => {
    expect(formalFormat.specVersion).toBe(FORMAT_SPEC_VERSION);
    const { specVersion: _, ...unversioned } = base;
    expect(checkFormat({ ...unversioned, name: "unversioned" }).ok).toBe(true);
    const future = checkFormat({ ...base, name: "from-the-future", specVersion: 2 });
    expect(!future.ok && future.errors[0]).toMatchObject({
      code: "FORMAT_SPEC_VERSION",
      path: "specVersion",
    });
    expect(!future.ok && future.errors[0]!.message).toMatch(/version 2.*implements version 1/);
  });
});

describe("formal as a registered format", () => {
  it("asks both debaters in parallel, then the judge, as nextAction says", () => {
    const state = freshState();
    expect(formalFormat.next(state)).toEqual({
      kind: "ask",
      exchange: 0,
      phase: "awaiting_arguments",
      mode: "parallel",
      asks: [
        { role: "proposition", task: "opening" },
        { role: "opposition", task: "opening" },
      ],
      opens: true,
      completed: 0,
    });
    const judging = freshState({ current_phase: "awaiting_judgment", current_exchange: 1 });
    expect(formalFormat.next(judging)).toMatchObject({
      kind: "ask",
      asks: [{ role: "judge", task: "judgment" }],
      opens: false,
      completed: 1,
    });
  });

  it("is done at the configured exchanges, and standing says complete", () => {
    const done = freshState({ current_exchange: 3 });
    expect(formalFormat.next(done)).toEqual({
      kind: "done",
      reason: "complete",
      message: "complete after 3 exchange(s)",
    });
    expect(formalFormat.standing(done)).toMatchObject({
      phase: "complete",
      progress: { done: 3, total: 3, unit: "exchange" },
      sides: { proposition: "0.00", opposition: "0.00" },
      complete: true,
    });
  });

  it("refuses an answer from a seat that does not act in the phase", () => {
    const parsed = formalFormat.parseAnswer(freshState(), "judge", "{}");
    expect(!parsed.ok && parsed.errors[0]!.code).toBe("DEBATE_PHASE_MISMATCH");
  });

  it("makes the frontmatter of a new debate with its defaults and the seat settings given", () => {
    const made = formalFormat.newDebate({
      slug: "x",
      seats: { opposition: "codex" },
      seatDefaults: { effort: "low" },
      now: "2026-01-01T00:00:00Z",
    });
    expect(made.ok && made.value.frontmatter).toMatchObject({
      format: "formal",
      exchanges: 5,
      seats: {
        proposition: { adapter: "claude", effort: "low" },
        opposition: { adapter: "codex", effort: "low" },
      },
      // The default judge debates in neither seat (codex debates here, so gemini).
      judges: { panel: [{ adapter: "gemini", effort: "low" }] },
    });
    expect(made.ok && made.value.frontmatter.seats?.judge).toBeUndefined();
  });
});
