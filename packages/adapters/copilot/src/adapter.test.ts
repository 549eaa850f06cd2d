import { expect, test } from "vitest";
import { createAdapter } from "./adapter.js";

// The shared behaviour (statuses, redaction, detect) is tested in adapter-kit's cli-adapter.test.ts;
// this checks the copilot spec is wired in: its name, its program and its install hint.
test("detect() without the CLI says not installed and how to install copilot", async () => {
  const seat = { adapter: "copilot" as const, command: ["/nonexistent/bin/copilot"] };
  const detection = await createAdapter(seat, { debateDir: ".", env: {} }).detect();
  expect(detection).toMatchObject({ adapter: "copilot", installed: false, usable: false });
  expect(detection.hint).toContain("npm install -g @github/copilot");
});
