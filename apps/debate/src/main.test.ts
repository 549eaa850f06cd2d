import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "./commands/index.js";
import { createProgram } from "./main.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describe("the debate binary", () => {
  it("prints help when called without arguments", () => {
    const out = execFileSync(process.execPath, [bin], { encoding: "utf8" });
    expect(out).toMatch(/^Usage: debate/);
  });

  it("fails with exit 1 and a one-line cause on an unknown command", () => {
    const result = spawnSync(process.execPath, [bin, "frobnicate"], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: (unknown command 'frobnicate'|too many arguments)/);
  });
});

describe("command files load only when their command runs", () => {
  // A resolve hook that appends every resolved URL to the file $LOADED_LOG names.
  const hook = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, resolved.url + "\\\\n");
  return resolved;
}\`));
`;
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "debate-lazy-"));
    await writeFile(join(work, "hook.mjs"), hook);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** The files of dist/commands/ that `debate args...` loads, by name, and what it printed. */
  async function commandFilesOf(args: string[]): Promise<{ files: string[]; stdout: string }> {
    const log = join(work, `${args[0]}.log`);
    const child = spawnSync(process.execPath, ["--import", join(work, "hook.mjs"), bin, ...args], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, LOADED_LOG: log },
    });
    expect(child.status, child.stderr).toBe(0);
    const urls = (await readFile(log, "utf8")).trim().split("\n");
    const files = urls.flatMap((url) => /\/dist\/commands\/([^/]+)\.js$/.exec(url)?.[1] ?? []);
    return { files: [...new Set(files)].sort(), stdout: child.stdout };
  }

  it("`debate status` loads the status command's file and no other command's", async () => {
    const { files, stdout } = await commandFilesOf(["status", "--json", work]);
    expect(JSON.parse(stdout)).toEqual([]);
    // index.ts (the table) and lazy.ts (main's helper) are no command's file.
    expect(files).toEqual(["index", "lazy", "status"]);
  });

  it("`debate --help` loads every command's file, to list them all", async () => {
    const { files, stdout } = await commandFilesOf(["--help"]);
    expect(stdout).toMatch(/^Usage: debate/);
    for (const name of ["new", "run", "status", "allow", "completion", "mcp", "watch"])
      expect(files).toContain(name);
  });

  it("createProgram declares only the named command's file (allow.ts declares allow and deny)", async () => {
    const names = async (only?: string) =>
      (await createProgram(undefined, only === undefined ? {} : { only })).commands.map((c) => c.name());
    expect(await names("deny")).toEqual(["allow", "deny"]);
    expect(await names("status")).toEqual(["status"]);
    expect(await names("frobnicate")).toEqual(commands.flatMap((c) => c.names));
    expect(await names()).toEqual(commands.flatMap((c) => c.names));
  });
});
