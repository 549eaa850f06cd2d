import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { buildClaudeEnv, createAdapter } from "./adapter.js";

// The shared behaviour (statuses, redaction, detect) is tested in adapter-kit's cli-adapter.test.ts;
// these check the claude spec is wired in: its name, its program, its install hint and its env.
test("detect() without the CLI says not installed and how to install claude", async () => {
  const seat = { adapter: "claude" as const, command: ["/nonexistent/bin/claude"] };
  const detection = await createAdapter(seat, { debateDir: ".", env: {} }).detect();
  expect(detection).toMatchObject({ adapter: "claude", installed: false, usable: false });
  expect(detection.hint).toContain("npm install -g @anthropic-ai/claude-code");
});

test("the child env drops CLAUDECODE and adds the effort level's variables", () => {
  const env = buildClaudeEnv({ CLAUDECODE: "1", PATH: "/bin" }, { MAX_THINKING_TOKENS: "0" });
  expect(env).toEqual({ PATH: "/bin", MAX_THINKING_TOKENS: "0" });
});

test("a call runs without CLAUDECODE even when the caller has it (a real child process)", async () => {
  // Stands in for claude: prints a claude-shaped result saying whether CLAUDECODE reached it.
  const dir = await mkdtemp(join(tmpdir(), "dk-claude-"));
  const script = join(dir, "claude.cjs");
  await writeFile(
    script,
    `process.stdin.resume(); process.stdin.on("end", () => console.log(JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "CLAUDECODE=" + (process.env.CLAUDECODE ?? "unset") })));`,
  );
  try {
    const seat = { adapter: "claude" as const, command: [process.execPath, script] };
    const call = await createAdapter(seat, { debateDir: dir, env: { CLAUDECODE: "1" } }).call({
      prompt: "hi",
      timeoutMs: 20_000,
      cwd: dir,
    });
    expect(call).toMatchObject({ status: "ok", text: "CLAUDECODE=unset" });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
