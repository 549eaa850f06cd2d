import { Writable } from "node:stream";
import type { CliIO } from "../output.js";

/** What one in-process `debate …` command printed, and its exit code. */
export interface CliCall {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

/**
 * Runs one `debate` command in this process with its output captured (never the process's stdout,
 * which carries the MCP protocol): the MCP tools reuse the commands' own checks and wording.
 */
export async function callCli(args: readonly string[], io: Pick<CliIO, "env" | "cwd">): Promise<CliCall> {
  // Loaded on use: main.ts lists every command, this one included.
  const { main } = await import("../main.js");
  const out = collector();
  const err = collector();
  const code = await main(["node", "debate", ...args], {
    stdout: out.stream,
    stderr: err.stream,
    env: io.env,
    cwd: io.cwd,
  });
  return { code, stdout: out.text(), stderr: err.text() };
}
