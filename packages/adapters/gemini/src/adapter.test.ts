import { expect, test } from "vitest";
import { createAdapter } from "./adapter.js";

// The shared behaviour (statuses, redaction, detect) is tested in adapter-kit's cli-adapter.test.ts;
// this checks the gemini spec is wired in: its name, its program and its install hint.
test("detect() without the CLI says not installed and how to install gemini", async () => {
  const seat = { adapter: "gemini" as const, command: ["/nonexistent/bin/gemini"] };
  const detection = await createAdapter(seat, { debateDir: ".", env: {} }).detect();
  expect(detection).toMatchObject({ adapter: "gemini", installed: false, usable: false });
  expect(detection.hint).toContain("npm install -g @google/gemini-cli");
});
