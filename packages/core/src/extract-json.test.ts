import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractJson } from "./extract-json.js";
import { MAX_JSON_DEPTH, MAX_MODEL_OUTPUT_CHARS } from "./limits.js";

const value = { arguments: [{ title: 'a {b} "c" }', n: 1 }] };
const json = JSON.stringify(value);

describe("extractJson", () => {
  it.each([
    ["the whole text", json],
    ["the whole text with a BOM and blank lines", `\uFEFF\n\n${json}\n\n`],
    ["a ```json fence", `\`\`\`json\n${json}\n\`\`\``],
    [
      "a bare ``` fence with prose around",
      `Here you go:\n\`\`\`\n${JSON.stringify(value, null, 2)}\n\`\`\`\nDone.`,
    ],
    ["a ~~~ fence", `~~~json\n${json}\n~~~`],
    ["a one-line fence", `\`\`\`json ${json}\`\`\``],
    ["prose before and after", `My answer is ${json} and that is final.`],
    ["braces in prose before it", `Using {curly} notation and a stray } here: ${json}`],
    [
      "several fences, the first not JSON",
      `\`\`\`python\nprint({1: 2})\n\`\`\`\n\`\`\`json\n[1]\n\`\`\`\n\`\`\`json\n${json}\n\`\`\``,
    ],
    ["an unclosed brace before it", `{ oops\n\`\`\`json\n${json}\n\`\`\``],
  ])("finds the object in %s", (_name, text) => {
    expect(extractJson(text)).toEqual({ ok: true, value });
  });

  it("refuses two different fenced objects as ambiguous instead of taking the first", () => {
    const text = '```json\n{"first": true}\n```\n```json\n{"second": true}\n```';
    const result = extractJson(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_AMBIGUOUS");
    expect(!result.ok && result.errors[0]!.message).toContain('{"first":true}, {"second":true}');
  });

  it("refuses a draft object in the prose and another in a fence as ambiguous", () => {
    const result = extractJson(`Draft: {"arguments": []}\n\`\`\`json\n${json}\n\`\`\``);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_AMBIGUOUS");
    expect(!result.ok && result.errors[0]!.message).toMatch(
      /found 2 different ones in and around fenced blocks/,
    );
  });

  it("refuses two different objects in prose as ambiguous", () => {
    const result = extractJson(`Draft: {"arguments": []} Final: ${json}`);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_AMBIGUOUS");
    expect(!result.ok && result.errors[0]!.message).toMatch(/found 2 different ones in the prose/);
  });

  it.each([
    ["the same object in two fences", `\`\`\`json\n${json}\n\`\`\`\nAgain:\n\`\`\`json\n${json}\n\`\`\``],
    ["the same object twice in prose", `First ${json} and again ${json}.`],
    ["an object and prose with braces after it", `${json}\nNote: {this} is prose, so is { that }.`],
    ["an object holding nested objects", `Answer: {"outer": {"inner": {"x": 1}}, "list": [{"y": 2}]}`],
    [
      "a fenced object and an empty {} in the prose",
      `It returns {} when empty.\n\`\`\`json\n${json}\n\`\`\``,
    ],
    ["a fenced object and the same object bare", `${json}\n\`\`\`json\n${json}\n\`\`\``],
  ])("still takes one object: %s", (_name, text) => {
    expect(extractJson(text).ok).toBe(true);
  });

  it("refuses JSON nested 100k levels deep with a clear error, without overflowing the stack", () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    for (const text of [
      deep,
      `Here:\n\`\`\`json\n${deep}\n\`\`\``,
      `{"arguments": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    ]) {
      const result = extractJson(text);
      expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_TOO_DEEP");
      expect(!result.ok && result.errors[0]!.message).toMatch(
        /nested at most 64 levels deep.*nests 10000[01] levels deep;/,
      );
    }
  });

  it("accepts nesting up to the limit", () => {
    const text = `${'{"a":'.repeat(MAX_JSON_DEPTH)}1${"}".repeat(MAX_JSON_DEPTH)}`;
    expect(extractJson(text).ok).toBe(true);
    const deeper = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(extractJson(deeper).ok).toBe(false);
  });

  it("refuses text over the cap with a clear error, without parsing it", () => {
    const result = extractJson(" ".repeat(MAX_MODEL_OUTPUT_CHARS + 1));
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_TOO_LARGE");
  });

  it("stays fast on hostile input: many unclosed braces just under the cap", () => {
    const text = `${"{".repeat(MAX_MODEL_OUTPUT_CHARS - 10)}`;
    const start = process.cpuUsage();
    const result = extractJson(text);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_NO_JSON");
    // CPU time, not wall time, so a loaded machine does not fail it; quadratic scanning would
    // take minutes of CPU. The speed itself is measured in bench/.
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(10_000);
  }, 30_000);

  it("calls text with NUL bytes binary", () => {
    const result = extractJson(`${json}\u0000`);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_BINARY");
  });

  it("finds any JSON object embedded in prose (property)", () => {
    const prose = fc
      .string()
      .filter((s) => !s.includes("{") && !s.includes("`") && !s.includes("~") && !s.includes("\u0000"));
    const object = fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(prose, object, prose, fc.boolean(), (before, obj, after, fenced) => {
        const body = JSON.stringify(obj);
        const text = fenced
          ? `${before}\n\`\`\`json\n${body}\n\`\`\`\n${after}`
          : `${before} ${body} ${after}`;
        const result = extractJson(text);
        expect(result).toEqual({ ok: true, value: JSON.parse(body) });
      }),
      { numRuns: 300 },
    );
  }, 180_000); // a property's speed is not what it tests: on 2 loaded cores 30 s was not enough

  it("never throws, whatever the text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), (text) => {
        const result = extractJson(text);
        if (!result.ok) expect(result.errors[0]!.code).toMatch(/^MODEL_OUTPUT_/);
      }),
      { numRuns: 200 },
    );
  }, 180_000); // generous: the machine is shared (30 s timed out under CI's load), and a slow run is not a failure of the property
});
