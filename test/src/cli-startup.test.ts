import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// Start-up loads only what the command uses: the module graph of a command that only prints
// (help, version, the completion script) holds none of the heavy dependencies. Not timed
// (`pnpm bench cli` times it); this records every module the process resolves.
const bin = join(repoRoot, "apps/debate/dist/bin.js");

/** Modules a printing command must never load, by a part of their resolved URL. */
const heavy = [
  "/ioredis@",
  "/bullmq@",
  "/@modelcontextprotocol+sdk@",
  "/zod@",
  "/js-tiktoken@",
  "/playwright-core@",
  "/ajv@",
  "/@dagrejs+dagre@",
  "/chokidar@",
  "/yaml@",
  "/packages/tournament/",
  "/packages/files/",
  "/packages/adapters/",
  // these packages' entries; a small module of theirs (a constant, a list of names) may load
  "/packages/report/dist/index.js",
  "/packages/runner/dist/index.js",
  "/packages/skills/dist/index.js",
];

/** core's entry (every format); the CLI may load its secrets module alone. Completion lists the
 * options of `new` and `import`, which come from the formats: it loads core, and only core. */
const core = "/packages/core/dist/index.js";

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
  work = await mkdtemp(join(tmpdir(), "cli-startup-"));
  await writeFile(join(work, "hook.mjs"), hook);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Every module URL `debate args...` resolves, after checking it printed what it should. */
async function modulesOf(args: string[], name: string): Promise<string[]> {
  const log = join(work, `${name}.log`);
  const child = spawnSync(process.execPath, ["--import", join(work, "hook.mjs"), bin, ...args], {
    encoding: "utf8",
    env: { ...process.env, LOADED_LOG: log },
  });
  expect(child.status, child.stderr).toBe(0);
  expect(child.stdout.length).toBeGreaterThan(0);
  return (await readFile(log, "utf8")).trim().split("\n");
}

describe("start-up loads only what the command uses", () => {
  for (const [name, args, forbidden] of [
    ["help", ["--help"], [...heavy, core]],
    ["version", ["--version"], [...heavy, core]],
    ["completion", ["completion", "bash"], heavy],
  ] as const) {
    it(`debate ${args.join(" ")} loads none of the heavy modules`, async () => {
      const loaded = await modulesOf([...args], name);
      expect(loaded.some((url) => url.includes("/commander@"))).toBe(true);
      expect(loaded.filter((url) => forbidden.some((h) => url.includes(h)))).toEqual([]);
    });
  }
});

describe("a command's file loads only when its command runs", () => {
  /** The files of the CLI's dist/commands/ a URL list holds, by name. */
  const commandFiles = (urls: string[]) =>
    [
      ...new Set(urls.flatMap((url) => /\/apps\/debate\/dist\/commands\/([^/]+)\.js$/.exec(url)?.[1] ?? [])),
    ].sort();

  it("debate status loads the status command's file and no other command's", async () => {
    // index.ts (the table of commands) and lazy.ts (main's helper) are no command's file.
    expect(commandFiles(await modulesOf(["status", "--json", work], "status"))).toEqual([
      "index",
      "lazy",
      "status",
    ]);
  });

  it("debate --help loads every command's file, to list them all", async () => {
    const loaded = commandFiles(await modulesOf(["--help"], "help-all"));
    for (const name of ["new", "run", "status", "allow", "completion", "mcp", "watch"])
      expect(loaded).toContain(name);
  });
});
