import type { DebateFrontmatter } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { freshState } from "../../../test-helpers/states.js";
import type { DebateState } from "../../../types.js";
import { formalFormat } from "../format.js";
import { checkCommittedState } from "./committed.js";

describe("formal's committed-state check", () => {
  // Exchange 2 awaiting arguments, but none of exchanges 0-1 exist: what a hand edit of the marker does.
  const broken = (format?: string): DebateState => {
    const { format: _, ...rest } = freshState({ current_exchange: 2 }).frontmatter;
    // debate.md may name any registered format; formal's schema type knows only the built-ins.
    return { ...freshState(), frontmatter: { ...rest, ...(format ? { format } : {}) } as DebateFrontmatter };
  };

  it("finds the missing arguments whatever name debate.md gives the format (the registry picked formal)", () => {
    const asFormal = checkCommittedState(broken("formal"));
    expect(asFormal.length).toBeGreaterThan(0);
    // A format registered under another name that re-uses formal's rules gets the same check.
    expect(checkCommittedState(broken("house-formal"))).toEqual(asFormal);
    expect(checkCommittedState(broken())).toEqual(asFormal);
    expect(formalFormat.checkCommitted(broken("house-formal"))).toEqual(asFormal);
  });
});
