import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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

/** core's entry (every format); the CLI may load its secrets module alone. */
const core = "/packages/core/dist/index.js";

/** schema's validators, compiled when imported. */
const validators = "/packages/schema/dist/generated/validators.js";

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

// A hook that appends every path (not a module's URL) read through fs/promises to $READ_LOG.
const readHook = `import { appendFileSync } from "node:fs";
import fs from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
const readFile = fs.readFile;
fs.readFile = (path, ...rest) => {
  if (!String(path).startsWith("file:")) appendFileSync(process.env.READ_LOG, String(path) + "\\n");
  return readFile(path, ...rest);
};
syncBuiltinESMExports();
`;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-startup-"));
  await writeFile(join(work, "hook.mjs"), hook);
  await writeFile(join(work, "read-hook.mjs"), readHook);
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
    // Completion lists the options of `new` and `import`, which come from the formats: it reads
    // core's declarations of the built-ins (data), never their rules.
    ["completion", ["completion", "bash"], [...heavy, core, validators]],
  ] as const) {
    it(`debate ${args.join(" ")} loads none of the heavy modules`, async () => {
      const loaded = await modulesOf([...args], name);
      expect(loaded.some((url) => url.includes("/commander@"))).toBe(true);
      expect(loaded.filter((url) => forbidden.some((h) => url.includes(h)))).toEqual([]);
    });
  }
});

describe("completion reads the formats' declarations", () => {
  it("lists the flags of a format a config file registers (its module loads, with core in full)", () => {
    // test/formats/debatekit.config.json registers the toy format: its seats and its length flag,
    // once allowed (a state folder of the test's own records it).
    const env = { ...process.env, XDG_STATE_HOME: join(work, "state") };
    const allowed = spawnSync(process.execPath, [bin, "allow", "."], {
      cwd: join(repoRoot, "test/formats"),
      encoding: "utf8",
      env,
    });
    expect(allowed.status, allowed.stderr).toBe(0);
    const child = spawnSync(process.execPath, [bin, "completion", "bash"], {
      cwd: join(repoRoot, "test/formats"),
      encoding: "utf8",
      env,
    });
    expect(child.stderr).toBe("");
    expect(child.status, child.stderr).toBe(0);
    const opts = /^ {4}new\) opts="([^"]*)"/m.exec(child.stdout)?.[1]?.split(" ");
    expect(opts).toEqual(
      expect.arrayContaining(["--proposition", "--proposer", "--critic", "--pro", "--con"]),
    );
    expect(opts).toEqual(expect.arrayContaining(["--exchanges", "--rounds", "--max-rounds", "--turns"]));
  });
});

describe("start-up looks for the config files that may name formats", () => {
  it("lists each folder once and opens only the config files there: none that does not exist", async () => {
    // Every command but the gate checks, at start, whether a config file in reach names formats.
    const home = join(work, "home");
    const cwd = join(work, "project/sub");
    await mkdir(join(home, ".config/debatekit"), { recursive: true });
    await mkdir(cwd, { recursive: true });
    await writeFile(join(home, ".config/debatekit/config.yaml"), "effort: low\n");
    await writeFile(join(work, "project/debatekit.config.json"), '{ "dir": "talks" }\n');
    const log = join(work, "reads.log");
    const child = spawnSync(
      process.execPath,
      ["--import", join(work, "read-hook.mjs"), bin, "completion", "bash"],
      {
        cwd,
        encoding: "utf8",
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: "", READ_LOG: log },
      },
    );
    expect(child.status, child.stderr).toBe(0);
    const read = (await readFile(log, "utf8").catch(() => "")).trim().split("\n").filter(Boolean);
    expect(read).toEqual([
      join(home, ".config/debatekit/config.yaml"),
      join(work, "project/debatekit.config.json"),
    ]);
  });
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
