import { describe, expect, test } from "vitest";
import { parseDebateFile } from "./documents.js";

const debate = (judge: string) => `---
debate_id: d
format: formal
exchanges: 1
current_exchange: 0
current_phase: awaiting_arguments
seats:
  proposition: { adapter: replay, file: replay.jsonl }
  opposition: { adapter: replay, file: replay.jsonl }
  judge: ${judge}
---

# Motion

This house would test.
`;

// Built at run time so no key-shaped literal sits in the repository.
const fakeKey = ["sk", "proj", "Zx81QwErTy7UiOp3AsDfGh5JkL"].join("-");

describe("parseDebateFile refuses literal secrets in seats", () => {
  test.each([
    ["a key-shaped env value", `{ adapter: claude, env: { EXTRA: "${fakeKey}" } }`, "seats.judge.env.EXTRA"],
    [
      "a literal for a secret-named variable",
      `{ adapter: claude, env: { ANTHROPIC_API_KEY: "abcdefgh12" } }`,
      "seats.judge.env.ANTHROPIC_API_KEY",
    ],
    [
      "a key beside a reference",
      `{ adapter: claude, env: { X: "\${HOME}-${fakeKey}" } }`,
      "seats.judge.env.X",
    ],
    [
      "a key in the command",
      `{ adapter: acp, command: [agent, "--api-key=${fakeKey}"] }`,
      "seats.judge.command[1]",
    ],
  ])("%s", (_, judge, field) => {
    const parsed = parseDebateFile(debate(judge));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors[0]).toMatchObject({ code: "SEAT_LITERAL_SECRET", path: `debate.md:${field}` });
    expect(parsed.errors[0]!.message).toContain("environment variable");
    expect(parsed.errors[0]!.message).not.toContain(fakeKey);
  });

  test("a judge of a panel and the fallback judge are seats too", () => {
    const text = debate("{ adapter: replay, file: replay.jsonl }")
      .replace(/\n {2}judge: .*\n/, "\n")
      .replace(
        "---\n\n# Motion",
        `judges:\n  panel:\n    - { adapter: replay, file: replay.jsonl }\n    - { adapter: claude, env: { EXTRA: "${fakeKey}" } }\n  fallback: { adapter: codex, env: { OPENAI_API_KEY: "abcdefgh12" } }\n---\n\n# Motion`,
      );
    const parsed = parseDebateFile(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => [e.code, e.path])).toEqual([
      ["SEAT_LITERAL_SECRET", "debate.md:judges.panel.1.env.EXTRA"],
      ["SEAT_LITERAL_SECRET", "debate.md:judges.fallback.env.OPENAI_API_KEY"],
    ]);
    expect(JSON.stringify(parsed.errors)).not.toContain(fakeKey);
  });

  test("references, proxies and plain settings are fine", () => {
    const parsed = parseDebateFile(
      debate(
        `{ adapter: codex, api_key_env: MY_KEY, base_url: "http://127.0.0.1:8080/v1", env: { OPENAI_API_KEY: "\${MY_KEY}", HTTPS_PROXY: "http://proxy.local:3128", LOG_LEVEL: debug, TOKEN_LIMIT: "100000" } }`,
      ),
    );
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
  });

  test("a base URL with credentials in it is refused by the schema", () => {
    const parsed = parseDebateFile(debate(`{ adapter: http, base_url: "https://user:pass@host/v1" }`));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]!.path).toBe("debate.md:seats.judge.base_url");
  });

  test("tools: read without a workspace is refused, naming the field", () => {
    const parsed = parseDebateFile(debate("{ adapter: claude, tools: read }"));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]!.message).toContain("workspace");
    expect(parseDebateFile(debate("{ adapter: claude, tools: read, workspace: ../repo }")).ok).toBe(true);
  });
});
