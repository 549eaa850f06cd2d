import { cp, readdir, readFile, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

/** The example debates shipped in the package (copied into dist/examples/ at build time). */
const examplesRoot = fileURLToPath(new URL("../examples/", import.meta.url));

/** What an example says of itself (examples/<name>/example.json): a line for the list, what to run next. */
interface ExampleManifest {
  description: string;
  /** What the copy is, printed after `created <dir>`: recorded answers only when it has them. */
  created: string;
  /** Commands that run it offline, `{dir}` standing for the folder it was copied to. */
  next: string[];
  /** A file to read instead, when it is a setup rather than a run (`{dir}` as above). */
  see?: string;
}

/** The names of the shipped examples, sorted. */
export async function listExamples(): Promise<string[]> {
  const entries = await readdir(examplesRoot, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** An example's manifest; a broken one is the package's fault, said with the file. */
async function manifestOf(name: string): Promise<ExampleManifest> {
  const file = join(examplesRoot, name, "example.json");
  const data = JSON.parse(await readFile(file, "utf8")) as Partial<ExampleManifest>;
  if (typeof data.description !== "string" || typeof data.created !== "string" || !Array.isArray(data.next))
    throw new ExitError(`${file}: expected \`description\`, \`created\` and \`next\``, 1);
  return data as ExampleManifest;
}

/** A folder as a shell word: quoted when it holds anything a shell would read. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** `debate example [name] [dir]`: lists the offline examples, or copies one into a new folder. */
export function registerExample(program: Command, io: CliIO): void {
  program
    .command("example")
    .description(
      "list the offline examples (debates, a review, a tournament, a gate setup), or copy one into a new folder",
    )
    .argument("[name]", "the example to copy (omit to list them)")
    .argument("[dir]", "the folder to create (default: the example's name, in the current folder)")
    .addHelpText(
      "after",
      "\nExamples:\n  debate example                          # list them\n  debate example ai-review-gate my-debate # copy one, then: debate run my-debate\n",
    )
    .action(async (name: string | undefined, dirArg: string | undefined) => {
      const names = await listExamples();
      if (name === undefined) {
        for (const n of names) io.stdout.write(`${n.padEnd(18)}  ${(await manifestOf(n)).description}\n`);
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
      const manifest = await manifestOf(name);
      await cp(join(examplesRoot, name), target, {
        recursive: true,
        filter: (src) => !src.endsWith(`${sep}example.json`),
      });
      const dir = shellWord(dirArg ?? name);
      const fill = (line: string) => line.replaceAll("{dir}", dir);
      io.stdout.write(`created ${dirArg ?? name} (${manifest.created})\n`);
      for (const line of manifest.next) io.stdout.write(`next: ${fill(line)}\n`);
      if (manifest.see) io.stdout.write(`see: ${fill(manifest.see)}\n`);
    });
}
