import { describe, expect, it } from "vitest";
import { collectLimit } from "./tournament.js";

describe("--limit", () => {
  it("takes either part alone, the other left empty", () => {
    expect(collectLimit("claude=2/30")).toEqual({ claude: { concurrency: 2, per_minute: 30 } });
    expect(collectLimit("http=1")).toEqual({ http: { concurrency: 1 } });
    expect(collectLimit("http=1/")).toEqual({ http: { concurrency: 1 } });
    expect(collectLimit("gemini=/60")).toEqual({ gemini: { per_minute: 60 } });
    expect(collectLimit("codex=3", { claude: { per_minute: 5 } })).toEqual({
      claude: { per_minute: 5 },
      codex: { concurrency: 3 },
    });
  });

  it("refuses a limit with neither part, naming what it got", () => {
    for (const bad of ["http=", "http=/", "http", "=1/2", "http=a/2", "http=1/2/3"])
      expect(() => collectLimit(bad)).toThrow(`got ${JSON.stringify(bad)}`);
  });
});
