import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  debate,
  exists,
  installAsReadmeSays,
  newcomer,
  newManualDebate,
  type Ran,
  startHere,
} from "../newcomer.js";

// A newcomer's first minutes, as the README tells them: `debate` installed globally from the packed
// tarballs into a clean prefix by the README's own command (its text, run as written), then run from
// a folder that has nothing to do with the repository.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let installed: string;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("readme-"));
  const prefix = join(root, "prefix");
  installed = await installAsReadmeSays(prefix);
  env = { ...env, PATH: `${join(prefix, "bin")}:${env.PATH}` };
}, 300_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the README's first screen", () => {
  it("is five commands (install, an offline debate, status, report) and each works from an unrelated folder", async () => {
    const commands = await startHere();
    expect(commands).toHaveLength(5);
    expect(commands[0]).toBe("npm install -g @debatekit/cli");
    // The install itself ran in beforeAll from the packed tarballs (the package is not on npm yet).
    expect(await exists(installed)).toBe(true);
    const ran: Record<string, Ran> = {};
    for (const command of commands.slice(1)) {
      const [name, ...args] = command.split(/\s+/);
      expect(name).toBe("debate");
      const result = debate(args, { cwd, env, executable: "debate" });
      expect(result.stderr.includes("Error") ? result.stderr : "", command).not.toMatch(/ERR_|Error:/);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      ran[args[0]!] = result;
    }
    expect(ran.example!.stdout).toContain("created my-debate");
    expect(ran.run!.stdout).toContain("done: complete after 5 exchange(s)");
    // Paths are shown relative to where the user stands.
    expect(ran.run!.stdout).toContain("files: my-debate\n");
    expect(ran.status!.stdout).toMatch(/^my-debate\s+complete\s+5\/5\s+\+0\.20\s+-0\.65/m);
    expect(ran.report!.stdout).toContain("wrote my-debate/report.md, my-debate/report.html");
    expect(await exists(join(cwd, "my-debate", "report.html"))).toBe(true);
  });
});

describe("an installed debate, run far from the repository", () => {
  it("lists the built-in skills", () => {
    const list = debate(["skills", "list"], { cwd, env, executable: "debate" });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("testing-claims");
    expect(list.stdout).toContain("judging-rubric");
    expect(list.stdout).not.toContain("no skills found");
  });

  it("gives a seat the built-in skills that match the motion, whatever folder it runs from", async () => {
    const made = newManualDebate(
      "This house would trust test coverage figures as proof that the tests check the code",
      "coverage",
      { cwd, env, executable: "debate" },
    );
    expect(made.code, made.stderr).toBe(0);
    const run = debate(["run", "coverage"], { cwd, env, executable: "debate" });
    expect(run.code, run.stderr).toBe(0);
    const prompts = await readdir(join(cwd, "coverage", "prompts"));
    expect(prompts).toContain("e000-proposition.md");
    const prompt = await readFile(join(cwd, "coverage", "prompts", "e000-proposition.md"), "utf8");
    expect(prompt).toContain("## Skill: testing-claims");
    expect(prompt).not.toContain("(no extra guidance for this debate)");
  });
});
