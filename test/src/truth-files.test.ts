import { cp, lstat, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// What a command says it did is what the files show: read-only commands leave a folder as they found
// it, and a config file's mistakes are named with the file and the field.
const FIXTURE = join(repoRoot, "../shared/fixtures/dialectic/halt-ai-development");

let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-files-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every entry under `dir` (folders included) with its size and modification time, to compare before and after. */
async function listing(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    const stats = await lstat(file, { bigint: true });
    out[relative(dir, file)] = `${entry.isDirectory() ? "dir" : stats.size} ${stats.mtimeNs}`;
  }
  return out;
}

describe("read-only commands on a finished dialectic folder", () => {
  it("run (nothing to do), status, report --json and doctor write nothing but the report's two files", async () => {
    const dir = join(root, "halt-ai-development");
    await cp(FIXTURE, dir, { recursive: true, preserveTimestamps: true });
    const before = await listing(dir);
    for (const args of [
      ["run", dir],
      ["status", dir],
      ["status", dir, "--json"],
      ["doctor", dir],
    ]) {
      const ran = debate(args, { cwd, env });
      expect({ args, stderr: ran.stderr, code: ran.code }).toMatchObject({ code: 0 });
      expect({ args, listing: await listing(dir) }).toEqual({ args, listing: before });
    }
    const reported = debate(["report", dir, "--json"], { cwd, env });
    expect(reported.code).toBe(0);
    const after = await listing(dir);
    const { "report.md": md, "report.html": html, ...rest } = after;
    expect(md).toBeDefined();
    expect(html).toBeDefined();
    expect(rest).toEqual(before);
  });
});

describe("a config file's mistakes", () => {
  /** `debate new` in a folder whose debatekit.config.yaml is `yaml`; the seats not in it are manual flags. */
  async function newWith(yaml: string, flags: string[] = ["--opposition", "manual", "--judge", "manual"]) {
    const project = await mkdtemp(join(root, "project-"));
    await writeFile(join(project, "debatekit.config.yaml"), yaml);
    const ran = debate(["new", "This house would write tests first", ...flags], { cwd: project, env });
    return { ...ran, project };
  }

  it("refuses a seat no format has, with the file, the field and the seat it likely meant", async () => {
    const ran = await newWith("seats:\n  propositon: manual\n", [
      "--opposition",
      "manual",
      "--judge",
      "manual",
      "--proposition",
      "manual",
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "debatekit.config.yaml: `seats.propositon` is not a seat of any format (did you mean `proposition`?)",
    );
    expect(await readdir(ran.project)).toEqual(["debatekit.config.yaml"]);
  });

  it("names the config file's field, not a flag the user never typed, for an adapter that does not exist", async () => {
    const ran = await newWith("seats:\n  proposition: manuall\n");
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "debatekit.config.yaml: `seats.proposition` names no adapter `manuall` (did you mean `manual`?)",
    );
    expect(ran.stderr).not.toContain("--proposition");
    expect(await readdir(ran.project)).toEqual(["debatekit.config.yaml"]);
  });

  it("refuses an unknown key with the field it likely meant", async () => {
    const ran = await newWith("sets:\n  proposition: manual\n");
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "debatekit.config.yaml: `sets` is not a known field (did you mean `seats`?)",
    );
  });

  it("names the file of YAML that does not parse", async () => {
    const ran = await newWith("seats: [\n  proposition: manual\n");
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^debate: debatekit\.config\.yaml: /);
    expect(await readdir(ran.project)).toEqual(["debatekit.config.yaml"]);
  });
});
