import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countTokens, cutToTokens, encodeTokens, TOKEN_ENCODING } from "./tokens.js";

/** Text that exercises every branch of cl100k_base's pre-tokenizer, lone surrogates included. */
const trickyText = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.constantFrom(
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\n \n",
        "   x",
        "'s",
        "'LL",
        "don't",
        "1234567",
        "٣٤٥",
        "café",
        "Straße",
        "字字",
        "👍🏽",
        "<|endoftext|>",
        "```",
        "!!!\n\n",
        "\uD800",
      ),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("countTokens", () => {
  it("counts with cl100k_base (known counts, offline)", () => {
    expect(TOKEN_ENCODING).toBe("cl100k_base");
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("")).toBe(0);
  });
  it("counts exactly what js-tiktoken's encode returns, for any text, before and after the memo warms", () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        const expected = encodeTokens(text).length;
        expect(countTokens(text)).toBe(expected);
        expect(countTokens(text)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
  it("counts long pieces (not memoized) and long whitespace runs exactly", () => {
    for (const text of ["=".repeat(200), `${" ".repeat(100)}x`, "a".repeat(300), `x${"\n".repeat(70)}y`]) {
      expect(countTokens(text)).toBe(encodeTokens(text).length);
    }
  });
  it("counts special-token strings as plain text instead of throwing", () => {
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
  });
});

describe("cutToTokens", () => {
  const para = (i: number) => `Paragraph ${i} says something about caching and latency in a few words.`;
  const text = [1, 2, 3, 4, 5, 6].map(para).join("\n\n");

  it("returns the text unchanged when it fits", () => {
    const cut = cutToTokens(text, 1000, "[cut]");
    expect(cut).toEqual({ text, tokens: countTokens(text), truncated: false, fullTokens: countTokens(text) });
  });

  it("cuts at a paragraph boundary, appends the marker, and stays within the limit", () => {
    const limit = countTokens(`${para(1)}\n\n${para(2)}\n\n[cut]`) + 5;
    const cut = cutToTokens(text, limit, "[cut]");
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(limit);
    expect(cut.tokens).toBe(countTokens(cut.text));
    expect(cut.text).toMatch(/^Paragraph 1 .*\n\nParagraph 2 .*words\.\n\n\[cut\]$/s);
    expect(cut.text).not.toContain("Paragraph 3");
  });

  it("never leaves a code fence open", () => {
    const fenced = ["Intro line.", "```ts\nconst a = 1;", "const b = 2;\n```", "After."].join("\n\n");
    const full = countTokens(fenced);
    const cut = cutToTokens(fenced, full - 3, "[cut]");
    expect(cut.text).toBe("Intro line.\n\n[cut]");
  });

  it("falls back to lines, then tokens, without breaking a multi-byte character", () => {
    const one = "字".repeat(300);
    const cut = cutToTokens(one, 40, "[cut]");
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(40);
    expect(cut.text).not.toContain("\uFFFD");
    expect(cut.text.endsWith("\n\n[cut]")).toBe(true);
  });

  it("returns empty text when not even the marker fits", () => {
    expect(cutToTokens(text, 2, "[a much longer marker than two tokens]")).toMatchObject({
      text: "",
      tokens: 0,
    });
  });
});
