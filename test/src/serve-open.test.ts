import { spawn } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { debateBin, exists, newcomer, until } from "./newcomer.js";

// `debate serve --open` hands the printed URL to the user's browser ($BROWSER), as `debate report
// --open` hands it report.html; here the "browser" is a script that writes down what it was given.
it("opens the printed URL with $BROWSER, and the help says so", async () => {
  const { root, cwd, env } = await newcomer("serve-open-");
  await mkdir(join(cwd, "debates"));
  const opened = join(root, "opened.txt");
  const browser = join(root, "browser.sh");
  // Written whole, then renamed: the test reads it as soon as it exists (`>` alone would let it
  // see the file created and still empty).
  await writeFile(
    browser,
    `#!/bin/sh\nprintf '%s' "$1" > '${opened}.tmp' && mv '${opened}.tmp' '${opened}'\n`,
  );
  await chmod(browser, 0o755);
  const child = spawn(process.execPath, [debateBin, "serve", "--open", "--port", "0"], {
    cwd,
    env: { ...env, BROWSER: browser },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  try {
    await until(
      "the server prints its URL",
      () => /open (http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+\/\?token=\S+)/.test(out),
      20_000,
    );
    await until("the browser is given the URL", () => exists(opened), 10_000);
    expect(await readFile(opened, "utf8")).toBe(/open (\S+)/.exec(out)![1]);
  } finally {
    child.kill("SIGTERM");
  }
  const help = spawn(process.execPath, [debateBin, "serve", "--help"], { cwd, env });
  let text = "";
  help.stdout.on("data", (d) => (text += d));
  await new Promise((done) => help.on("close", done));
  expect(text).toContain("--open");
}, 60_000);
