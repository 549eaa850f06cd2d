import { cp, readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

/** The example debates shipped in the package (copied into dist/examples/ at build time). */
const examplesRoot = fileURLToPath(new URL("../examples/", import.meta.url));

/** The names of the shipped examples, sorted. */
export async function listExamples(): Promise<string[]> {
  const entries = await readdir(examplesRoot, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The first line of an example's motion (the body of its debate.md), for the list. */
async function motionOf(name: string): Promise<string> {
  const text = await readFile(join(examplesRoot, name, "debate.md"), "utf8");
  const body = text.split(/^---$/m).slice(2).join("---");
  const line = body.split("\n").find((l) => l.trim() && !l.startsWith("#"));
  return line?.trim() ?? "";
}

/** `debate example [name] [dir]`: lists the offline examples, or copies one into a new folder. */
export function registerExample(program: Command, io: CliIO): void {
  program
    .command("example")
    .description("list the offline example debates, or copy one into a new folder to run")
    .argument("[name]", "the example to copy (omit to list them)")
    .argument("[dir]", "the folder to create (default: the example's name, in the current folder)")
    .addHelpText(
      "after",
      "\nExamples:\n  debate example                          # list them\n  debate example ai-review-gate my-debate # copy one, then: debate run my-debate\n",
    )
    .action(async (name: string | undefined, dirArg: string | undefined) => {
      const names = await listExamples();
      if (name === undefined) {
        for (const n of names) io.stdout.write(`${n.padEnd(18)}  ${await motionOf(n)}\n`);
        return;
      }
      if (!names.includes(name))
        throw new ExitError(`no example named "${name}"; the examples are: ${names.join(", ")}`, 2);
      const target = resolve(io.cwd, dirArg ?? name);
      const taken = await stat(target).then(
        () => true,
        () => false,
      );
      if (taken) throw new ExitError(`${dirArg ?? name} already exists; name a new folder`, 1);
      await cp(join(examplesRoot, name), target, { recursive: true });
      io.stdout.write(
        `created ${dirArg ?? name} (recorded answers: runs offline)\nnext: debate run ${dirArg ?? name}\n`,
      );
    });
}
