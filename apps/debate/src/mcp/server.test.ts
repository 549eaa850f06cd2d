import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFormat, registerFormat } from "@debatekit/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDebateMcpServer } from "./server.js";

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "mcp-server-"));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A client connected in memory to a server made now, over the debates folder `work/debates`. */
async function connect(): Promise<Client> {
  const server = createDebateMcpServer({ root: "debates", cwd: work, env: { HOME: work }, version: "0.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(clientSide);
  return client;
}

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

describe("the MCP server's debate_new", () => {
  it("offers the formats registered when the server is made, with their seats and length", async () => {
    const formal = findFormat("formal")!;
    const registered = registerFormat({
      ...formal,
      name: "toy-mcp",
      phases: { awaiting_toy: "1-toy" },
      newOptions: {
        seats: [
          { role: "pro", description: "argues for" },
          { role: "con", description: "argues against" },
        ],
        length: { flag: "turns", description: "how many turns", default: 1, min: 1, max: 3 },
      },
    });
    expect(registered.ok).toBe(true);
    const client = await connect();
    const { tools } = await client.listTools();
    const properties = tools.find((t) => t.name === "debate_new")!.inputSchema.properties as Record<
      string,
      { enum?: string[]; default?: string; description?: string }
    >;
    expect(properties.format!.enum).toEqual(["formal", "crossfire", "review", "toy-mcp"]);
    expect(properties.format!.default).toBe("formal");
    expect(properties.length!.description).toContain("toy-mcp: how many turns (1-3)");
    expect(properties.seats!.description).toContain("toy-mcp: pro, con");
    expect(properties.motion!.description).toMatch(
      /^formal, crossfire, toy-mcp: the motion or topic; not for review$/,
    );
    await client.close();
  });

  it("passes on the create action's warnings, and its error as the line `debate` prints", async () => {
    const client = await connect();
    const made = await call(client, "debate_new", {
      format: "crossfire",
      motion: "Should we move the API to gRPC?",
      seats: { proposer: "codex", challenger: "manual", judge: "codex" },
    });
    expect(made.isError).toBeFalsy();
    const result = JSON.parse(made.content[0]!.text!) as { format: string; warnings: string[] };
    expect(result.format).toBe("crossfire");
    expect(result.warnings).toEqual([
      "the judge (codex) is the proposer's own adapter, model and endpoint: it may favour its own side; pass --judge with another CLI or model",
    ]);
    // A manual seat is a person: no self-judging warning.
    const people = await call(client, "debate_new", {
      format: "crossfire",
      motion: "Should we move the API to gRPC, people?",
      seats: { proposer: "manual", challenger: "manual", judge: "manual" },
    });
    expect(JSON.parse(people.content[0]!.text!).warnings ?? []).toEqual([]);
    const missing = await call(client, "debate_new", { format: "crossfire", motion: "gRPC?", seats: {} });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toBe(
      "debate: the crossfire format needs --proposer <adapter> and --challenger <adapter>",
    );
    await client.close();
  });
});
