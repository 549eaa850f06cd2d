// Pieces shared by the seat-safety suites of the real CLIs: where a hostile tool call would leave
// its marker, and a stdio MCP server a planted user setup starts.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
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
