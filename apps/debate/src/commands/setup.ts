import { mkdir, readdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

/** The Claude Code plugin shipped in this package: its commands are also OpenCode's. */
export const pluginDir = fileURLToPath(new URL("../../plugin/", import.meta.url));

/** How OpenCode starts the MCP server through npx: the published CLI. */
export const npxMcpCommand = ["npx", "-y", "@debatekit/cli", "mcp"];

/** This install's `debate` program (dist/bin.js beside this file's folder). */
const thisBin = fileURLToPath(new URL("../bin.js", import.meta.url));

/**
 * How OpenCode starts the MCP server unless told otherwise, and why: this very install (node and
 * its bin.js, by absolute path), which works whether or not the package is published; when this
 * `debate` runs from npx's throwaway cache, npx itself, as that path may be gone tomorrow.
 */
export function defaultMcpCommand(
  execPath = process.execPath,
  bin = thisBin,
): { command: string[]; why: string } {
  if (/[\\/]_npx[\\/]/.test(bin))
    return { command: npxMcpCommand, why: "npx's copy of @debatekit/cli, as this one runs from npx's cache" };
  return { command: [execPath, bin, "mcp"], why: "this install of debate, by its absolute path" };
}

/** One OpenCode command file made from a plugin command: OpenCode reads `description` (and `$ARGUMENTS`). */
export async function openCodeCommands(): Promise<Array<{ name: string; text: string }>> {
  const [{ formatRuleErrors }, { joinFrontmatter, splitFrontmatter }] = await Promise.all([
    import("@debatekit/core"),
    import("@debatekit/files"),
  ]);
  const dir = join(pluginDir, "commands");
  const names = (await readdir(dir)).filter((n) => n.endsWith(".md")).sort();
  const out: Array<{ name: string; text: string }> = [];
  for (const name of names) {
    const file = join(dir, name);
    const doc = splitFrontmatter(await readFile(file, "utf8"), file);
    if (!doc.ok) throw new ExitError(formatRuleErrors(doc.errors).join("\n"));
    const description = doc.value.data.description;
    // Claude Code's `allowed-tools` and `argument-hint` mean nothing to OpenCode; its MCP tools are
    // named `debatekit_<tool>`, which the body's bare tool names still point at.
    out.push({
      name,
      text: joinFrontmatter({ data: { description }, body: doc.value.body, style: "yaml" }),
    });
  }
  return out;
}

/** opencode.json with the debatekit MCP server set; refuses a file that is not a JSON object. */
export function withMcpServer(file: string, text: string | undefined, command: string[]): string {
  let config: Record<string, unknown> = { $schema: "https://opencode.ai/config.json" };
  if (text !== undefined && text.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ExitError(
        `${file}: expected JSON (comments are not kept: edit it by hand and add "mcp": {"debatekit": {"type": "local", "command": ${JSON.stringify(command)}}}): ${(error as Error).message}`,
      );
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new ExitError(`${file}: expected a JSON object at the top`);
    config = parsed as Record<string, unknown>;
  }
  const mcp = config.mcp ?? {};
  if (mcp === null || typeof mcp !== "object" || Array.isArray(mcp))
    throw new ExitError(`${file}: field mcp: expected an object of MCP servers`);
  config.mcp = { ...mcp, debatekit: { type: "local", command, enabled: true } };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** `debate setup opencode`: adds the commands and the MCP server to a project's (or the user's) OpenCode setup. */
export function registerSetup(program: Command, io: CliIO): void {
  const setup = program
    .command("setup")
    .description("add debatekit to a coding agent (Claude Code: see --help)");
  setup.addHelpText(
    "after",
    "\nClaude Code installs the plugin itself:\n  claude plugin install debatekit --marketplace debatekit/debatekit\n",
  );
  setup
    .command("opencode")
    .description(
      "add the /debate-* commands and the debatekit MCP server to OpenCode (this project, or --global)",
    )
    .option("--global", "the user's OpenCode config ($XDG_CONFIG_HOME/opencode) instead of this project")
    .option("--dir <folder>", "the project folder", ".")
    .argument(
      "[server...]",
      "after --, how OpenCode starts the MCP server (default: this install of debate, by its absolute path)",
    )
    .action(async (server: string[], opts: { global?: boolean; dir: string }) => {
      const base = opts.global
        ? join(io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), ".config"), "opencode")
        : resolve(io.cwd, opts.dir);
      const configFile = join(base, "opencode.json");
      const existing = await readFile(configFile, "utf8").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return undefined;
        throw e;
      });
      // Everything is checked before anything is written.
      const chosen =
        server.length > 0 ? { command: server, why: "the command given after --" } : defaultMcpCommand();
      const config = withMcpServer(configFile, existing, chosen.command);
      const commands = await openCodeCommands();
      const { writeFileAtomic } = await import("@debatekit/files");
      const commandDir = opts.global ? join(base, "command") : join(base, ".opencode", "command");
      await mkdir(commandDir, { recursive: true });
      for (const c of commands) await writeFileAtomic(join(commandDir, c.name), c.text);
      await writeFileAtomic(configFile, config);
      const shown = (p: string) => {
        const rel = relative(io.cwd, p);
        return rel && !rel.startsWith("..") ? rel : p;
      };
      io.stdout.write(
        `wrote ${commands.map((c) => `/${c.name.replace(/\.md$/, "")}`).join(", ")} to ${shown(commandDir)}\n` +
          `added the debatekit MCP server to ${shown(configFile)}: OpenCode starts it with ${JSON.stringify(chosen.command)} (${chosen.why}; \`debate setup opencode -- <command>\` sets another)\n`,
      );
    });
}
