import type { Command } from "commander";
import type { CliIO } from "../output.js";
import { version } from "../version.js";

/** `debate mcp`: the engine as tools for an agent, over MCP on stdio. */
export function registerMcp(program: Command, io: CliIO): void {
  program
    .command("mcp")
    .description(
      "serve debates as MCP tools and resources over stdio (for Claude Code, OpenCode, ...); a message over 4 MiB gets a JSON-RPC error and is skipped",
    )
    .option("--dir <folder>", "the folder debates are created in and read from", "debates")
    .action(async (opts: { dir: string }) => {
      // The MCP SDK and the engine load only when the server starts.
      const [{ StdioServerTransport }, { limitLines }, { createDebateMcpServer }, { trackRequests }] =
        await Promise.all([
          import("@modelcontextprotocol/sdk/server/stdio.js"),
          import("../mcp/line-limit.js"),
          import("../mcp/server.js"),
          import("../mcp/in-flight.js"),
        ]);
      const server = createDebateMcpServer({ root: opts.dir, cwd: io.cwd, env: io.env, version });
      // Messages over MAX_MESSAGE_BYTES are answered with an error and skipped; the server goes on.
      const input = process.stdin.pipe(limitLines((line) => process.stdout.write(line)));
      const transport = new StdioServerTransport(input as unknown as typeof process.stdin, process.stdout);
      // The end of input is the end of the lines read from it (every request handed to the server),
      // not stdin's own end, which can come before its last line has gone through.
      const closed = new Promise<void>((done) => {
        transport.onclose = () => done();
        input.once("end", () => done());
      });
      await server.connect(transport);
      const requests = trackRequests(transport);
      io.stderr.write(`debate mcp: serving debates in ${opts.dir} over stdio\n`);
      await closed;
      // Requests taken before the input ended are answered before the server closes.
      await requests.settled();
      await server.close();
    });
}
