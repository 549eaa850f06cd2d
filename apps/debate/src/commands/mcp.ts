import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { createDebateMcpServer } from "../mcp/server.js";
import type { CliIO } from "../output.js";
import { version } from "../version.js";

/** `debate mcp`: the engine as tools for an agent, over MCP on stdio. */
export function registerMcp(program: Command, io: CliIO): void {
  program
    .command("mcp")
    .description("serve debates as MCP tools and resources over stdio (for Claude Code, OpenCode, ...)")
    .option("--dir <folder>", "the folder debates are created in and read from", "debates")
    .action(async (opts: { dir: string }) => {
      const server = createDebateMcpServer({ root: opts.dir, cwd: io.cwd, env: io.env, version });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((done) => {
        transport.onclose = () => done();
        process.stdin.once("end", () => done());
      });
      await server.connect(transport);
      io.stderr.write(`debate mcp: serving debates in ${opts.dir} over stdio\n`);
      await closed;
      await server.close();
    });
}
