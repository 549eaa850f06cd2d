import { readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Every transcript (a ```console block) in a README is run here, as written, from an empty folder
// with the built `debate`: its `$ debate ...` lines are the commands, the lines under each are what
// the command prints (progress on stderr, then the summary on stdout). A line `...` stands for lines
// left out; a line ending in `...` for the rest of that line.

/** Every README.md of the repository, outside node_modules. */
async function readmes(dir = repoRoot): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "dist") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await readmes(path)));
    else if (entry.name === "README.md") found.push(path);
  }
  return found;
}

interface Step {
  command: string;
  shown: string[];
}

/** The commands of a transcript and the lines shown under each. */
function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), shown: [] });
    else if (line !== "" && steps.length > 0) steps[steps.length - 1]!.shown.push(line);
  }
  return steps;
}

const matches = (shown: string, printed: string): boolean =>
  shown.endsWith("...") ? printed.startsWith(shown.slice(0, -3)) : printed === shown;

/**
 * Where the shown lines differ from the printed ones (undefined when they agree): runs of shown
 * lines between `...` appear whole and in order, the first at the start and the last at the end.
 */
export function transcriptMismatch(shown: string[], printed: string[]): string | undefined {
  const runs: string[][] = [[]];
  for (const line of shown) {
    if (line === "...") runs.push([]);
    else runs[runs.length - 1]!.push(line);
  }
  let at = 0;
  for (const [i, run] of runs.entries()) {
    if (run.length === 0) continue;
    const last = i === runs.length - 1;
    let found = -1;
    for (let start = at; start + run.length <= printed.length; start++) {
      if (i === 0 && start > 0) break;
      if (last && start + run.length !== printed.length) continue;
      if (run.every((line, k) => matches(line, printed[start + k]!))) {
        found = start;
        break;
      }
    }
    if (found < 0)
      return `not printed${i === 0 ? " first" : last ? " last" : ""} in this order:\n${run.join("\n")}`;
    at = found + run.length;
  }
  return undefined;
}

let root: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ root, env } = await newcomer("transcripts-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("README transcripts", () => {
  it("the matcher fails a line the command does not print", () => {
    expect(transcriptMismatch(["a", "...", "c"], ["a", "b", "c"])).toBeUndefined();
    expect(transcriptMismatch(["a", "...", "c: ..."], ["a", "b", "c: d"])).toBeUndefined();
    expect(transcriptMismatch(["a", "...", "x"], ["a", "b", "c"])).toMatch(/not printed last/);
    expect(transcriptMismatch(["b"], ["a", "b"])).toMatch(/not printed first/);
  });

  it("every ```console block of every README runs as written from an empty folder", async () => {
    let blocks = 0;
    for (const readme of await readmes()) {
      const text = await readFile(readme, "utf8");
      for (const [n, match] of [...text.matchAll(/```console\n([\s\S]*?)```/g)].entries()) {
        blocks++;
        const where = `${relative(repoRoot, readme)}, transcript ${n + 1}`;
        const { cwd } = await newcomer("transcript-");
        for (const step of stepsOf(match[1]!)) {
          const [name, ...args] = step.command.split(/\s+/);
          expect(name, `${where}: only \`debate\` commands run here`).toBe("debate");
          const ran = debate(args, { cwd, env });
          expect(ran.code, `${where}: $ ${step.command}\n${ran.stderr}`).toBe(0);
          const printed = `${ran.stderr}${ran.stdout}`.replace(/\n$/, "").split("\n");
          expect(transcriptMismatch(step.shown, printed), `${where}: $ ${step.command}`).toBeUndefined();
        }
        await rm(join(cwd, "..", ".."), { recursive: true, force: true });
      }
    }
    expect(blocks).toBeGreaterThan(0);
  });
});
