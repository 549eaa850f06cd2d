import type { AddressInfo } from "node:net";
import { relative, sep } from "node:path";
import { serve } from "@hono/node-server";
import { watch } from "chokidar";
import { createServeApp } from "./app.js";
import { newSecrets, type ServeSecrets, servePrefix } from "./security.js";

/** What `debate serve` was asked to serve, and how. */
export interface ServeOptions {
  roots: readonly string[];
  /** 0: any free port. */
  port: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  secrets?: ServeSecrets;
}

/** A running server: its URL (its secret prefix, with the token), and how to stop it. */
export interface ServeHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The one address the server ever binds: loopback, never a public interface. */
export const SERVE_HOST = "127.0.0.1";

/**
 * Starts the web app over `roots` on 127.0.0.1, with a file watcher that tells every open page what
 * changed (within about 150 ms). Resolves once it listens.
 */
export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const secrets = options.secrets ?? newSecrets();
  let port = options.port;
  const served = createServeApp({ ...options, secrets, port: () => port });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      { fetch: served.app.fetch, port: options.port, hostname: SERVE_HOST },
      (info: AddressInfo) => {
        port = info.port;
        resolve(s);
      },
    );
    s.once("error", reject);
  });

  // Which debates a changed path belongs to: the served debate folder it lies in.
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    const paths = [...pending];
    pending = new Set();
    const debates = await served.debates().catch(() => []);
    const ids = debates
      .filter((d) => paths.some((p) => p === d.dir || !relative(d.dir, p).startsWith(`..${sep}`)))
      .map((d) => d.id);
    served.changed(ids);
  };
  const watcher = watch([...options.roots], {
    ignoreInitial: true,
    depth: 4,
    followSymlinks: false,
    ignored: (path: string) => /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(path),
  });
  watcher.on("all", (_event, path) => {
    pending.add(path);
    timer ??= setTimeout(() => void flush(), 150);
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    url: `http://${SERVE_HOST}:${port}${servePrefix(secrets)}/?token=${secrets.token}`,
    port,
    close: async () => {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await served.stopRuns();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open event streams would hold the server open: end them.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
