import { spawn } from "node:child_process";
import type { CliIO } from "./output.js";

/**
 * The program that opens a file: `$BROWSER` when set (the first of a `:`-separated list; `%s` marks
 * where the path goes, else it is the last argument), else the platform's opener. Never a shell:
 * the command is split on spaces and run directly.
 */
export function openerFor(
  path: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const browser = env.BROWSER?.split(":").find((b) => b.trim() !== "");
  if (browser) {
    const [command, ...rest] = browser.trim().split(/\s+/);
    const args = rest.some((a) => a.includes("%s"))
      ? rest.map((a) => a.replace(/%s/g, path))
      : [...rest, path];
    return { command: command!, args };
  }
  if (platform === "darwin") return { command: "open", args: [path] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", "", path] };
  return { command: "xdg-open", args: [path] };
}

/** Opens a file or a URL with the user's viewer, without waiting for it (a missing opener is a warning, not a failure). */
export function openWithViewer(path: string, io: Pick<CliIO, "env" | "stderr">): void {
  const { command, args } = openerFor(path, io.env);
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", (e) =>
    io.stderr.write(`warning: could not open ${path} with ${command}: ${e.message}\n`),
  );
  child.unref();
}
