import { describe, expect, it } from "vitest";
import { diffData, rebaseData } from "./data-diff.js";

describe("diffData", () => {
  it("lists set and removed keys, nested objects key by key, arrays whole", () => {
    expect(
      diffData(
        { a: 1, b: { c: 1, d: 2 }, e: [1], gone: true },
        { a: 1, b: { c: 2, d: 2 }, e: [1, 2], f: null },
      ),
    ).toEqual([
      { path: ["gone"], remove: true },
      { path: ["b", "c"], value: 2 },
      { path: ["e"], value: [1, 2] },
      { path: ["f"], value: null },
    ]);
  });
});

describe("rebaseData", () => {
  const base = { exchanges: 3, current_exchange: 0, scores: { p: { total: 0, count: 0 } } };
  const next = { exchanges: 3, current_exchange: 1, scores: { p: { total: 0.5, count: 3 } } };

  it("applies the changes from base to next over what changed meanwhile", () => {
    const current = { exchanges: 8, current_exchange: 0, scores: { p: { total: 0, count: 0 } }, note: "x" };
    expect(rebaseData(current, base, next)).toEqual({
      exchanges: 8,
      current_exchange: 1,
      scores: { p: { total: 0.5, count: 3 } },
      note: "x",
    });
  });

  it("takes next's whole object where the current data lacks the object a change goes into", () => {
    expect(rebaseData({ exchanges: 3, current_exchange: 0 }, base, next)).toEqual(next);
    expect(rebaseData({ scores: "by hand" }, base, next)).toMatchObject({ scores: next.scores });
  });

  it("removes only what the step removed, and skips a removal whose object is gone", () => {
    const withPaused = { ...base, paused: true, scores: { p: { total: 0, count: 0 }, q: 1 } };
    const stepped = { ...base, scores: { p: { total: 0, count: 0 } } };
    expect(rebaseData({ ...withPaused, kept: 1 }, withPaused, stepped)).toEqual({ ...stepped, kept: 1 });
    expect(rebaseData({ exchanges: 3 }, withPaused, stepped)).toEqual({ exchanges: 3 });
  });

  it("keeps a `__proto__` key an own key", () => {
    const withProto = JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    const result = rebaseData({}, {}, withProto);
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});
