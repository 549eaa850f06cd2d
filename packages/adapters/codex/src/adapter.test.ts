import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createAdapter } from "./adapter.js";

const missing = { adapter: "codex" as const, command: ["/nonexistent/bin/codex"] };

describe("codex adapter without the CLI", () => {
  test("a call is status unavailable, not a throw", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "dk-codex-"));
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
    expect(detection).toMatchObject({ adapter: "codex", installed: false, usable: false });
    expect(detection.hint).toContain("npm install -g @openai/codex");
  });
});
