import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { ExitError } from "../exit-error.js";
import { openWithViewer } from "../opener.js";
import type { CliIO } from "../output.js";
import { abortOnSignals } from "../stop-signals.js";

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new InvalidArgumentError(`expected a port from 0 to 65535, got ${JSON.stringify(value)}`);
  return n;
}

/** `debate serve [dirs...]`: a live web page over debate folders, on 127.0.0.1 only, behind a token. */
export function registerServe(program: Command, io: CliIO): void {
  program
    .command("serve")
    .description("watch debates live and answer as a seat from the browser (127.0.0.1 only; Ctrl-C stops)")
    .addHelpText(
      "after",
      `
The page lists the debates with the facts \`debate status\` prints and follows their files as they
change; a debate's page shows its report growing, the progress of a run started from it, and a form
for each manual seat waiting for an answer (checked by the format before anything is written), a
person's decision when a debate waits for one (the choices, the judge's recommendation and reasons),
and the controls: run, stop, pause, resume, more exchanges/rounds. Every change is an edit of the
debate's files, as a person's editor would make it. Only the printed URL (it carries a random token)
opens it; --open hands that URL to $BROWSER, else the system's opener.

Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate serve                   # every debate under debates/
  $ debate serve debates/tests-first --port 8800
  $ debate serve --open`,
    )
    .argument("[dirs...]", "debate folders, or folders holding debate folders", ["debates"])
    .option("--port <n>", "the port on 127.0.0.1 (default: a free one)", parsePort, 0)
    .option("--open", "open the page in the browser ($BROWSER, else the system's opener)")
    .action(async (dirArgs: string[], opts: { port: number; open?: boolean }) => {
      const roots = await Promise.all(
        dirArgs.map(async (d) => {
          const abs = resolve(io.cwd, d);
          if (!(await stat(abs).catch(() => undefined))?.isDirectory())
            throw new ExitError(`${d}: not a folder (expected a debate folder or a folder of debates)`, 2);
          return realpath(abs);
        }),
      );
      // Signals are taken before the URL is printed: a stop right after it still closes cleanly.
      const { signal, dispose } = abortOnSignals(
        io,
        "stopping the server; runs started from the page stop and resume later",
      );
      const { startServe } = await import("../serve/server.js");
      const handle = await startServe({ roots, port: opts.port, env: io.env, cwd: io.cwd });
      io.stdout.write(`debate serve: open ${handle.url}\n`);
      if (opts.open) openWithViewer(handle.url, io);
      if (!signal.aborted)
        await new Promise<void>((done) => signal.addEventListener("abort", () => done(), { once: true }));
      await handle.close();
      dispose();
    });
}
