import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFormat, formatNames } from "@debatekit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowProjectConfig, projectConfigIn } from "./allow-config.js";
import { ExitError } from "./exit-error.js";
import { registerConfigFormats } from "./load-formats.js";
import type { CliIO } from "./output.js";

let work: string;
let home: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "load-formats-"));
  // An empty user config folder: only the project's file names formats.
  home = join(work, "home");
  await mkdir(home);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * A module that passes core's shape check without importing core (a temp folder cannot resolve it):
 * every method a format needs, and the tables. Its behaviour is the conformance suite's business.
 */
function formatModule(name: string, exportLine = "export default format;"): string {
  const methods = [
    "validateFrontmatter",
    "isRecordCommitted",
    "seat",
    "next",
    "prompt",
    "skillTask",
    "parseAnswer",
    "apply",
    "checkCommitted",
    "standing",
    "newDebate",
  ];
  return `const format = {
  name: ${JSON.stringify(name)},
  roles: [], seats: [], folders: [], records: [], phases: {},
  unit: { one: "turn", many: "turns" },
  reset: { supported: false, reason: "a test module" },
  newOptions: { seats: [], length: { flag: "turns", description: "turns", default: 1, min: 1, max: 1 } },
${methods.map((m) => `  ${m}() { throw new Error("not called"); },`).join("\n")}
};
${exportLine}
`;
}

/**
 * A project folder with `.debatekitrc.json` naming `formats`, and `files` written under it, allowed
 * as `debate allow` does (unless `allow` is false).
 */
async function project(
  name: string,
  formats: string[],
  files: Record<string, string>,
  allow = true,
): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(join(dir, ".debatekitrc.json"), `${JSON.stringify({ formats })}\n`);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(dir, file, ".."), { recursive: true });
    await writeFile(join(dir, file), content);
  }
  const config = await projectConfigIn(dir);
  if (allow && config) await allowProjectConfig(io(dir) as CliIO, config);
  return dir;
}

/** What registerConfigFormats wrote on stderr, by the io that carried it. */
const said = new WeakMap<object, string[]>();

function io(cwd: string): Pick<CliIO, "cwd" | "env" | "stderr" | "stdout"> {
  const lines: string[] = [];
  const stderr = { write: (s: string) => lines.push(s) } as unknown as CliIO["stderr"];
  const value = {
    cwd,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_STATE_HOME: join(home, "state"),
      PATH: process.env.PATH,
    },
    stderr,
    stdout: { write: () => true } as unknown as CliIO["stdout"],
  };
  said.set(value, lines);
  return value;
}

/** What registerConfigFormats threw, for an error that must end the command. */
async function failure(cwd: string): Promise<ExitError> {
  const error = await registerConfigFormats(io(cwd)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExitError);
  return error as ExitError;
}

describe("registerConfigFormats", () => {
  it("registers a folder the project's config names, relative to the config file's folder", async () => {
    const dir = await project("folder", ["./f"], {
      "f/package.json": `${JSON.stringify({ type: "module", main: "./index.mjs" })}\n`,
      "f/index.mjs": formatModule("lf-folder"),
    });
    // From a sub-folder: lilconfig finds the file above, and `./f` is still the config's neighbour.
    await mkdir(join(dir, "sub"));
    expect(await registerConfigFormats(io(join(dir, "sub")))).toEqual(["lf-folder"]);
    expect(formatNames()).toContain("lf-folder");
    expect(formatNames().slice(0, 3)).toEqual(["formal", "crossfire", "review"]);
  });

  it("registers a folder whose package.json gives only `exports` (no `main`)", async () => {
    const dir = await project("exports-folder", ["./g"], {
      "g/package.json": `${JSON.stringify({ type: "module", exports: { ".": { import: "./format.mjs" } } })}\n`,
      "g/format.mjs": formatModule("lf-exports-folder"),
    });
    expect(await registerConfigFormats(io(dir))).toEqual(["lf-exports-folder"]);
  });

  it("registers a package by name, found from the config file's folder, and a `format` export", async () => {
    const dir = await project("package", ["@acme/lf-format"], {
      "node_modules/@acme/lf-format/package.json": `${JSON.stringify({
        name: "@acme/lf-format",
        type: "module",
        exports: "./format.mjs",
      })}\n`,
      "node_modules/@acme/lf-format/format.mjs": formatModule("lf-package", "export { format };"),
    });
    expect(await registerConfigFormats(io(dir))).toEqual(["lf-package"]);
    expect(findFormat("lf-package")?.unit).toEqual({ one: "turn", many: "turns" });
  });

  it("registers an ESM-only package (its `exports` has only an `import` condition)", async () => {
    const dir = await project("esm-only", ["lf-esm"], {
      "node_modules/lf-esm/package.json": `${JSON.stringify({
        name: "lf-esm",
        type: "module",
        exports: { ".": { types: "./index.d.ts", import: "./index.mjs" } },
      })}\n`,
      "node_modules/lf-esm/index.mjs": formatModule("lf-esm"),
    });
    expect(await registerConfigFormats(io(dir))).toEqual(["lf-esm"]);
  });

  it("loads the same config twice in one process (the MCP server runs many commands) without a clash", async () => {
    const dir = await project("twice", ["./f.mjs"], { "f.mjs": formatModule("lf-twice") });
    expect(await registerConfigFormats(io(dir))).toEqual(["lf-twice"]);
    expect(await registerConfigFormats(io(dir))).toEqual(["lf-twice"]);
  });

  it("allows nothing (exit 2) naming the file and `formats[i]` when a module cannot be found", async () => {
    const error = await project("missing", ["./nowhere/index.mjs"], {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExitError);
    expect((error as ExitError).exitCode).toBe(2);
    expect((error as ExitError).message).toMatch(
      /\.debatekitrc\.json: `formats\[0\]` \(\.\/nowhere\/index\.mjs\) cannot be found: .*; nothing was allowed$/,
    );
  });

  it("leaves a project's formats out until allowed, and again once a module changes, saying how to allow them", async () => {
    const dir = await project("consent", ["./c.mjs"], { "c.mjs": formatModule("lf-consent") }, false);
    const before = io(dir);
    expect(await registerConfigFormats(before)).toEqual([]);
    expect(said.get(before)).toEqual([
      "debate: .debatekitrc.json names formats that are not allowed yet (./c.mjs): none of them was loaded. Check them, then allow them with `debate allow .`\n",
    ]);
    await allowProjectConfig(io(dir) as CliIO, (await projectConfigIn(dir))!);
    await writeFile(join(dir, "c.mjs"), formatModule("lf-consent-changed"));
    expect(await registerConfigFormats(io(dir))).toEqual([]);
    expect(formatNames()).not.toContain("lf-consent-changed");
  });

  it("ends the command (exit 2) when a module throws while it loads", async () => {
    const dir = await project("throws", ["./f/index.mjs"], {
      "f/index.mjs": 'throw new Error("broken format module");\n',
    });
    const error = await failure(dir);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      ".debatekitrc.json: `formats[0]` (./f/index.mjs) cannot be loaded: broken format module",
    );
  });

  it("refuses a module whose export is not a format, naming the entry and the field", async () => {
    const dir = await project("invalid", ["./ok.mjs", "./bad.mjs"], {
      "ok.mjs": formatModule("lf-invalid-ok"),
      "bad.mjs": "export default { name: 'Not A Name' };\n",
    });
    const error = await failure(dir);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(
      /^\.debatekitrc\.json: `formats\[1\]` \(\.\/bad\.mjs\): FORMAT_INVALID `name` /,
    );
  });

  it("refuses a format whose name is taken (a built-in), with FORMAT_NAME_TAKEN", async () => {
    const dir = await project("clash", ["./f.mjs"], { "f.mjs": formatModule("crossfire") });
    const error = await failure(dir);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(
      /^\.debatekitrc\.json: `formats\[0\]` \(\.\/f\.mjs\): FORMAT_NAME_TAKEN `name` /,
    );
    expect(findFormat("crossfire")?.unit.one).toBe("round");
  });

  it("refuses a second module that takes a name another module registered", async () => {
    const dir = await project("clash-outside", ["./a.mjs", "./b.mjs"], {
      "a.mjs": formatModule("lf-clash"),
      "b.mjs": formatModule("lf-clash"),
    });
    const error = await failure(dir);
    expect(error.message).toMatch(/`formats\[1\]` \(\.\/b\.mjs\): FORMAT_NAME_TAKEN/);
  });

  it("registers nothing when no config file names formats", async () => {
    const dir = join(work, "none");
    await mkdir(dir);
    expect(await registerConfigFormats(io(dir))).toEqual([]);
  });
});
