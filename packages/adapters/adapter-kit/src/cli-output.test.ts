import { describe, expect, test } from "vitest";
import { readJsonLines, unwrapErrorMessage } from "./cli-output.js";

describe("readJsonLines", () => {
  test("keeps the JSON objects in order and skips log lines, arrays and a partial last line", () => {
    const text = ['{"type":"a"}', "warning: slow", '  {"type":"b"}', "[1,2]", '{"type":"c"'].join("\n");
    expect(readJsonLines(text)).toEqual([{ type: "a" }, { type: "b" }]);
  });

  test("nothing readable gives an empty list", () => {
    expect(readJsonLines("Usage: cli [options]\n")).toEqual([]);
  });
});

describe("unwrapErrorMessage", () => {
  test("an API error body becomes its message", () => {
    expect(unwrapErrorMessage('{"error":{"message":"model not found"}}')).toBe("model not found");
  });

  test("plain text and JSON without an error message stay as they are", () => {
    expect(unwrapErrorMessage("connection refused")).toBe("connection refused");
    expect(unwrapErrorMessage('{"error":{"code":5}}')).toBe('{"error":{"code":5}}');
    expect(unwrapErrorMessage("null")).toBe("null");
  });
});
