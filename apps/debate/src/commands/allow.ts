import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { FolderPrograms, SeatProgram } from "@debatekit/files";
import type { Command } from "commander";
import type { ProjectConfig } from "../allow-config.js";
import { ExitError } from "../exit-error.js";
import { type CliIO, shownPath } from "../output.js";

/** What an allow/deny argument names: a debate or tournament folder, a project's config naming code, or both. */
interface AllowTarget {
  dir: string;
  /** True when the folder holds debate.md or tournament.md. */
  debate: boolean;
  config?: ProjectConfig;
}

/** The folder an allow/deny argument names: one holding debate.md or tournament.md, or a project config that names code (exit 2 otherwise). */
async function consentFolderOf(io: CliIO, arg: string): Promise<AllowTarget> {
  const dir = resolve(io.cwd, arg);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory())
    throw new ExitError(`${arg}: no such folder`, 2);
  const { projectConfigIn } = await import("../allow-config.js");
  const config = await projectConfigIn(dir);
  for (const file of ["debate.md", "tournament.md"]) {
    if ((await stat(join(dir, file)).catch(() => undefined))?.isFile()) return { dir, debate: true, config };
  }
  if (config) return { dir, debate: false, config };
  throw new ExitError(
    `${arg}: not a debate or tournament folder (it holds no debate.md or tournament.md), nor a project whose config names formats or is code`,
    2,
  );
}

/**
 * Everything a folder's seats would run: its own file's, and for a tournament each match's
 * debate.md too (the tournament's allowance covers its matches), each program once.
 */
export async function programsToAllow(dir: string, env: NodeJS.ProcessEnv): Promise<FolderPrograms> {
  const { readFolderPrograms } = await import("@debatekit/files");
  const found = await readFolderPrograms(dir, { env });
  if (found.file !== "tournament.md") return found;
  const matches = await readdir(join(dir, "debates"), { withFileTypes: true }).catch(() => []);
  const all = { ...found, programs: [...found.programs], refused: [...found.refused] };
  for (const match of matches.filter((m) => m.isDirectory())) {
    const own = await readFolderPrograms(join(dir, "debates", match.name), { env, consentDir: dir });
    const label = (seat: string) => `debates/${match.name}: ${seat}`;
    for (const p of own.programs)
      if (!all.programs.some((q) => q.hash === p.hash)) all.programs.push({ ...p, seat: label(p.seat) });
    all.refused.push(...own.refused.map((r) => ({ ...r, seat: label(r.seat) })));
  }
  return all;
}

/** One line per program: the seat, then what it runs, reads, sets or sends where. */
export function formatPrograms(programs: readonly SeatProgram[]): string[] {
  const width = Math.max(...programs.map((p) => p.seat.length));
  return programs.map(
    (p) => `  ${p.seat.padEnd(width)}  ${p.kind === "command" ? `runs ${p.shown}` : p.shown}`,
  );
}

/** `debate allow <folder>` and `debate deny <folder>`: the user's consent to the programs a folder names. */
export function registerAllow(program: Command, io: CliIO): void {
  program
    .command("allow")
    .description(
      "allow the programs a debate or tournament folder names (seats' `command:`, workspaces outside it) to run, its seats' servers off this machine to be sent your credentials, and a project config's formats to load",
    )
    .argument(
      "<folder>",
      "the debate folder (debate.md), tournament folder (tournament.md) or project folder (its config)",
    )
    .addHelpText(
      "after",
      `
A folder may come from someone else: the programs its seats name run only once you allowed them
for that folder. The same goes for a seat's server off this machine (a \`base_url\`, or an \`env:\` variable
such as OPENAI_BASE_URL or HTTPS_PROXY, whose host is not 127.0.0.0/8, ::1 or localhost): the
seat would send it your credentials (its api_key_env, the variables its env references, your CLI's
login), so it needs your consent too ("sends $GITHUB_TOKEN to https://models.example/v1").
\`allow\` prints each one, then records the folder's real path and a hash of each program (of a
server: its URL and the names of the variables it would be sent) in
$XDG_STATE_HOME/debatekit/allowed.json (default ~/.local/state/debatekit/), outside the folder.
Changing a program (or a file inside the folder it names) needs \`debate allow\` again;
\`debate deny\` takes the allowance back. Seats without \`command:\` run your installed CLIs and
need no allowance; a command listed in your own config's allow_commands runs in every folder, and
a server listed in its allow_endpoints (or one under it) is allowed in every folder.

Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate doctor debates/tests-first   # see what it would run or contact, without doing it
  $ debate allow debates/tests-first
  $ debate deny debates/tests-first

A project's config (debatekit.config.*, .debatekitrc*, package.json#debatekit) may come from
someone else too: the modules its \`formats\` names, and a debatekit.config.{js,mjs,cjs} itself, are
code. They load only once you ran \`debate allow <the folder holding the config>\`, which records
the file's real path and a sha256 of each module (of a JavaScript config, of the file) in
$XDG_STATE_HOME/debatekit/allowed-configs.json; a changed module needs \`debate allow\` again.
Until then every command leaves them out and says so; none imports them.
  $ debate allow .`,
    )
    .action(async (arg: string) => {
      const target = await consentFolderOf(io, arg);
      if (target.config) await (await import("../allow-config.js")).allowProjectConfig(io, target.config);
      if (target.debate) await allowDebateFolder(io, arg, target.dir);
    });
  program
    .command("deny")
    .description(
      "take back `debate allow` for a folder: its programs, and its config's formats, no longer run",
    )
    .argument("<folder>", "the debate or tournament folder, or the project folder holding the config")
    .action(async (arg: string) => {
      const target = await consentFolderOf(io, arg);
      if (target.config) await (await import("../allow-config.js")).denyProjectConfig(io, target.config);
      if (!target.debate) return;
      const { denyFolder, readFolderPrograms } = await import("@debatekit/files");
      const { dir: real } = await readFolderPrograms(target.dir, { env: io.env });
      const had = await denyFolder(real, io.env);
      io.stdout.write(
        had ? `denied: the programs of ${real} no longer run\n` : `${real} had nothing allowed\n`,
      );
    });
}

/** `debate allow` of a debate or tournament folder: records its programs. */
async function allowDebateFolder(io: CliIO, arg: string, dir: string): Promise<void> {
  const found = await programsToAllow(dir, io.env);
  const refused = found.refused[0];
  if (refused) throw new ExitError(`${arg}: ${found.file}: ${refused.message}`, 2);
  if (found.programs.length === 0) {
    io.stdout.write(
      `${arg} names nothing to allow: its seats run your installed CLIs, or none (replay, manual, http), and send your credentials to no server the folder chose\n`,
    );
    return;
  }
  const { allowancesFile, allowFolder } = await import("@debatekit/files");
  await allowFolder(found, io.env, new Date());
  io.stdout.write(
    `allowed in ${found.dir}:\n${formatPrograms(found.programs).join("\n")}\nrecorded in ${shownPath(io.cwd, allowancesFile(io.env))}\n`,
  );
}
