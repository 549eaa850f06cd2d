import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildClaudeEnv, createAdapter } from "./adapter.js";

const missing = { adapter: "claude" as const, command: ["/nonexistent/bin/claude"] };

describe("claude adapter without the CLI", () => {
  test("a call is status unavailable, not a throw", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "dk-claude-"));
    const call = await createAdapter(missing, { debateDir: cwd, env: { PATH: "/usr/bin" } }).call({
      prompt: "hi",
      timeoutMs: 5000,
      cwd,
    });
    expect(call.status).toBe("unavailable");
    expect(call.error).toContain("not installed");
  });

  test("detect() says not installed and how to install it", async () => {
    const detection = await createAdapter(missing, { debateDir: ".", env: {} }).detect();
    expect(detection).toMatchObject({ adapter: "claude", installed: false, usable: false });
    expect(detection.hint).toContain("npm install -g @anthropic-ai/claude-code");
  });

  test("the child env drops CLAUDECODE and adds the effort level's variables", () => {
    const env = buildClaudeEnv({ CLAUDECODE: "1", PATH: "/bin" }, { MAX_THINKING_TOKENS: "0" });
    expect(env).toEqual({ PATH: "/bin", MAX_THINKING_TOKENS: "0" });
  });
});
