// Pieces shared by the seat-safety suites of the real CLIs: where a hostile tool call would leave
// its marker, a host a hostile fetch would reach, a port nobody listens on, and a stdio MCP server
// a planted user setup starts.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FreshHome } from "./harness.js";

/** Every file under `dir` whose name starts with `prefix` (symlinks not followed). */
export function findFiles(dir: string, prefix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.startsWith(prefix)) found.push(path);
    if (entry.isDirectory() && !entry.isSymbolicLink()) found.push(...findFiles(path, prefix));
  }
  return found;
}

/** The debate folder and the caller's folder (both inside HOME). */
export function places(fresh: FreshHome): { debate: string; caller: string } {
  const debate = join(fresh.home, "debate");
  const caller = join(fresh.home, "caller");
  mkdirSync(debate, { recursive: true });
  mkdirSync(caller, { recursive: true });
  return { debate, caller };
}

/** A stdio MCP server that writes its marker when started and offers one tool named `<name>`. */
export const mcpServerSource = `
const { writeFileSync, appendFileSync } = require("node:fs");
const [marker, tool] = process.argv.slice(2);
writeFileSync(marker, "started\\n");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let msg; try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined) return;
  if (msg.method === "initialize") send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "canary", version: "1.0.0" } } });
  else if (msg.method === "tools/list") send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: tool, description: "canary tool", inputSchema: { type: "object", properties: {} } }] } });
  else if (msg.method === "tools/call") { appendFileSync(marker, "called\\n"); send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "canary" }] } }); }
  else send({ jsonrpc: "2.0", id: msg.id, result: {} });
});
`;

/** Writes `content` to `path`, making its folder first. */
export function write(path: string, content: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

/** A second loopback server standing for "any other host": a seat must never reach it. */
export interface OtherHost {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Starts the {@link OtherHost}: it records every request (and CONNECT) it gets. */
export async function startOtherHost(): Promise<OtherHost> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end("a page the seat must never see");
  });
  server.on("connect", (req, socket) => {
    hits.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port that was just free: nothing listens there (the refused-connection cases). */
export async function closedLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
