import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";

// A seat that cannot run (its CLI is not installed) is found before the first call, in every
// format: `debate run` exits 2 with the seat and how to install it, the debate is untouched, and the
// same command resumes once the seat can run.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-seats-ready-"));
  for (const dir of (env.PATH ?? "").split(":"))
    expect(() => execFileSync("test", ["-x", join(dir, "codex")])).toThrow();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every file under `dir` with its content, to compare before and after. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), "utf8");
  return out;
}

const cases = [
  {
    format: "formal",
    args: [
      "This house would ship on Fridays",
      "--proposition",
      "codex",
      "--opposition",
      "manual",
      "--judge",
      "manual",
    ],
    seat: "proposition",
  },
  {
    format: "crossfire",
    args: ["Tabs or spaces", "--proposer", "codex", "--challenger", "manual", "--judge", "manual"],
    seat: "proposer",
  },
];

describe("debate run with a seat whose CLI is not installed", () => {
  for (const c of cases)
    it(`${c.format}: exit 2 naming the seat, nothing written, and it resumes once the seat can run`, async () => {
      const made = debate(["new", "--format", c.format, ...c.args, "--slug", c.format], { cwd, env });
      expect(made.code, made.stderr).toBe(0);
      const dir = join(cwd, "debates", c.format);
      const before = await contents(dir);
      const run = debate(["run", `debates/${c.format}`], { cwd, env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${c.seat}: codex: not installed`);
      expect(run.stderr).toContain("npm install -g @openai/codex");
      expect(run.stdout).not.toMatch(/done|aborted/);
      expect(await contents(dir)).toEqual(before);

      // A person takes the seat: the same command runs (and waits for the people's answers).
      const file = join(dir, "debate.md");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace(/adapter: codex/, "adapter: manual"));
      const again = debate(["run", `debates/${c.format}`], { cwd, env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/waiting/);
    });
});
