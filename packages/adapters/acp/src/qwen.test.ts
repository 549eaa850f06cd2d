import { qwenLaunch } from "@debatekit/adapter-qwen";
import { expect, test } from "vitest";
import { knownAgentOf } from "./agents.js";

// The switches of `qwen --acp` are the qwen adapter's own (tested in full there, and against the
// real agent in test/src/cli/acp-qwen.cli.test.ts).
test("qwen is a known agent, started with --acp and the qwen adapter's switches", () => {
  const known = knownAgentOf(["/opt/bin/qwen", "--acp"]);
  expect(known?.command).toEqual(["qwen", "--acp"]);
  expect(known?.launch).toBe(qwenLaunch);
});
