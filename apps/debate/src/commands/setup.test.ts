import { describe, expect, it } from "vitest";
import { defaultMcpCommand, npxMcpCommand } from "./setup.js";

describe("the MCP command `debate setup opencode` writes", () => {
  it("is this install by absolute path, or npx when this one runs from npx's cache", () => {
    const installed = defaultMcpCommand(
      "/opt/node/bin/node",
      "/usr/lib/node_modules/@debatekit/cli/dist/bin.js",
    );
    expect(installed.command).toEqual([
      "/opt/node/bin/node",
      "/usr/lib/node_modules/@debatekit/cli/dist/bin.js",
      "mcp",
    ]);
    const cached = defaultMcpCommand(
      "/opt/node/bin/node",
      "/home/u/.npm/_npx/1a2b/node_modules/@debatekit/cli/dist/bin.js",
    );
    expect(cached.command).toEqual(npxMcpCommand);
    expect(cached.why).toContain("npx's cache");
  });
});
