import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatSandbox } from "@debatekit/adapter-kit";
import { opencodeSessionPlan as opencodeAcpLaunch } from "@debatekit/adapter-opencode";
import { afterEach, beforeEach, expect, test } from "vitest";
import { knownAgentOf } from "./agents.js";

// The switches of `opencode acp`: the opencode adapter's own (tested in full there), without its
// `--dir` flag, and against the real agent in test/src/cli/safety-opencode-copilot-acp.cli.test.ts.
let root: string;
let sandbox: SeatSandbox;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "acp-oc-"));
  sandbox = { dir: join(root, "seat"), cwd: join(root, "seat", "work"), tools: "none", isolation: "on" };
  mkdirSync(sandbox.cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test("opencode is a known agent with its own switches, run from the seat's private folder", () => {
  const known = knownAgentOf(["/opt/bin/opencode", "acp"]);
  expect(known?.launch).toBe(opencodeAcpLaunch);
  expect(known?.privateCwd).toBe(true);
});

test("tools off, isolated, the working folder a project root; tools: read links the workspace in", async () => {
  const plan = await opencodeAcpLaunch({ sandbox, env: { HOME: root }, endpoint: {} });
  const config = JSON.parse(plan.env!.OPENCODE_CONFIG_CONTENT!);
  expect(config.tools).toEqual({ "*": false });
  expect(config.permission["*"]).toBe("deny");
  expect(JSON.parse(plan.env!.OPENCODE_PERMISSION!)).toEqual(config.permission);
  expect(plan.args).toEqual(["--pure"]);
  expect(plan.env).toMatchObject({ OPENCODE_DISABLE_PROJECT_CONFIG: "1", npm_config_offline: "true" });
  expect(existsSync(join(sandbox.cwd, ".git", "HEAD"))).toBe(true);

  const workspace = join(root, "ws");
  mkdirSync(workspace);
  const read = await opencodeAcpLaunch({
    sandbox: { ...sandbox, tools: "read", workspace, cwd: workspace },
    env: { HOME: root, PATH: "" },
    endpoint: {},
  });
  const readConfig = JSON.parse(read.env!.OPENCODE_CONFIG_CONTENT!);
  expect(readConfig.tools).toEqual({ "*": false, read: true });
  expect(readConfig.permission.external_directory).toEqual({
    "*": "deny",
    [workspace]: "allow",
    [`${workspace}/*`]: "allow",
  });
  expect(read.links).toMatchObject({ "work/workspace": workspace });
});
