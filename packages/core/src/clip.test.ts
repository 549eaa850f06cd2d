import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clipText, clipTextEnd } from "./clip.js";
import { quote } from "./errors.js";

const TOKEN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const secretValue = fc.string({ unit: fc.constantFrom(...TOKEN), minLength: 8, maxLength: 64 });
// Filler words are at most 7 letters, so no 8-character piece of a secret can come from them.
const word = fc.string({ unit: fc.constantFrom(..."abcdefghij"), minLength: 1, maxLength: 7 });
const separator = fc.constantFrom(" ", ", ", '": "', "{", "} ", "\n", "(", ") ", " = ");

/** Random prose (words, JSON punctuation, line breaks) with `secret` placed among it 1-3 times. */
const textWith = (secret: fc.Arbitrary<string>) =>
  fc
    .tuple(secret, fc.array(word, { maxLength: 40 }), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }))
    .chain(([s, words, places]) => {
      const parts = [...words];
      for (const p of places) parts.splice(p % (parts.length + 1), 0, s);
      return fc
        .array(separator, { minLength: parts.length, maxLength: parts.length })
        .map((seps) => ({ secret: s, text: parts.map((p, i) => `${p}${seps[i]}`).join("") }));
    });

/** Every 8-character piece of `secret` that is in `output`. */
function leakedPieces(secret: string, output: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    if (output.includes(secret.slice(i, i + 8))) pieces.push(secret.slice(i, i + 8));
  }
  return pieces;
}

describe("clipText: redaction before the cut", () => {
  it("keeps short text whole and marks a cut", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("one two three four", 12)).toBe("one two thr…");
    expect(clipText("one two three four", 12, { marker: "..." })).toBe("one two t...");
  });

  it("never leaves the start of a key the cut went through", () => {
    const key = "sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0";
    const text = `request failed: invalid x-api-key ${key} (check ANTHROPIC_API_KEY)`;
    for (let max = 1; max <= text.length + 2; max++) {
      expect(leakedPieces(key, clipText(text, max)), `max ${max}`).toEqual([]);
    }
  });

  it("a later stage that knows a value removes what an earlier cut left of it", () => {
    const value = "Zq81xYv0Wm27Lk93Jh";
    // A CLI's parser cuts without the environment's values; the envelope redacts with them later.
    const first = clipText(`401 from the API: token ${value} was refused`, 33);
    expect(first).toBe("401 from the API: token Zq81xYv0…");
    expect(clipText(`claude exited with 1: ${first}`, 200, { secrets: [value] })).toBe(
      "claude exited with 1: 401 from the API: token [REDACTED]…",
    );
    const tail = clipTextEnd(`token ${value} was refused`, 20);
    expect(tail).toBe("…7Lk93Jh was refused");
    expect(clipText(tail, 200, { secrets: [value] })).toBe("…[REDACTED] was refused");
  });

  it("no 8-character piece of a secret value survives two stages of cutting (property)", () => {
    fc.assert(
      fc.property(textWith(secretValue), fc.nat(300), fc.nat(300), ({ secret, text }, m1, m2) => {
        // Stage 1 does not know the value (as a CLI's output parser); stage 2 does (as the envelope).
        const first = clipText(text, m1 + 1);
        const second = clipText(`seat failed: ${first} (exit 1)`, m2 + 1, { secrets: [secret] });
        const atOnce = clipText(text, m1 + 1, { secrets: [secret] });
        const end = clipTextEnd(text, m2 + 1, { secrets: [secret] });
        const endThen = clipText(`tail: ${clipTextEnd(text, m1 + 1)}`, m2 + 1, { secrets: [secret] });
        for (const output of [second, atOnce, end, endThen]) {
          expect(leakedPieces(secret, output)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("no 8-character piece of a key's body survives any cut, through quote too (property)", () => {
    const body = fc
      .tuple(secretValue, fc.constantFrom("A1b2", "9Zy8", "q7W6"))
      .map(([s, mix]) => `${mix}${s.replace(/[-_]/g, "")}x`.padEnd(24, "K3"));
    const keyed = textWith(body.map((b) => `sk-proj-${b}`));
    fc.assert(
      fc.property(keyed, fc.nat(300), ({ secret, text }, m) => {
        const key = secret.slice("sk-proj-".length);
        for (const output of [clipText(text, m + 1), quote(text, m + 1), clipTextEnd(text, m + 1)]) {
          expect(leakedPieces(key, output)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps its bound and never splits a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.nat(220), (text, max) => {
        const out = clipText(text, max + 1);
        expect(out.length).toBeLessThanOrEqual(Math.max(max + 1, 1));
        expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      }),
    );
  });

  it("handles a huge text by cutting it on a word boundary before redacting", () => {
    const value = "Hh71Kk82Ll93Mm04";
    const text = `${"word ".repeat(20_000)}${value} and more`;
    const out = clipText(text, 50, { secrets: [value] });
    expect(out).toBe(`${"word ".repeat(9)}word…`);
    expect(clipTextEnd(text, 30, { secrets: [value] })).toBe("…word word [REDACTED] and more");
  });
});
