import { connect } from "node:net";

/** Host names and addresses of this machine's loopback interface. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The loopback host and port a model server URL names, or undefined for any other URL. */
export function loopbackAddress(url: string): { host: string; port: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  if (!isLoopbackHost(parsed.hostname)) return undefined;
  const port = Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
  return { host: parsed.hostname.replace(/^\[|\]$/g, ""), port };
}

/**
 * True when the model server at `url` refuses connections: a loopback address where nothing
 * listens (a local Ollama or proxy that is not running). Only loopback URLs are probed (a remote
 * server may sit behind a proxy the CLI uses); anything else, an accepted connection, or no
 * answer within `timeoutMs` is false. Some CLIs retry a refused connection for a minute or more
 * (opencode 1.18.33 about 70 s, copilot 1.0.102 about 23 s) with no setting to bound it, so their
 * adapters ask this first and report the seat unavailable at once.
 */
export function refusesConnections(url: string, timeoutMs = 2000): Promise<boolean> {
  const address = loopbackAddress(url);
  if (!address) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port });
    const done = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("connect", () => done(false));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED"));
  });
}
