import { expect, test } from "vitest";
import { createAdapter } from "./adapter.js";

// The shared behaviour (statuses, redaction, detect) is tested in adapter-kit's cli-adapter.test.ts;
// this checks the opencode spec is wired in: its name, its program and its install hint.
test("detect() without the CLI says not installed and how to install opencode", async () => {
  const seat = { adapter: "opencode" as const, command: ["/nonexistent/bin/opencode"] };
  const detection = await createAdapter(seat, { debateDir: ".", env: {} }).detect();
  expect(detection).toMatchObject({ adapter: "opencode", installed: false, usable: false });
  expect(detection.hint).toContain("npm install -g opencode-ai");
});
