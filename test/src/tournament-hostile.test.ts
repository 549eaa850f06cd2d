import { mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderFingerprint, replayTournamentArgs, runDebateBin } from "./workspace.js";

// A tournament folder is data someone may hand over, like a debate folder: tournament.md's match
// ids must each name their own folder, a match folder must not lead outside the tournament, and a
// program a player's seat names runs only once the user allowed it. Through the built binary.

let work: string;
let home: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "tournament-hostile-"));
  home = join(work, "home");
  await mkdir(home);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const debate = (args: string[]) => runDebateBin(args, { cwd: work, home });

/** A two-player crossfire tournament on the example's replay recordings (4 matches). */
async function newTournament(name: string): Promise<string> {
  const made = debate(replayTournamentArgs(name));
  expect(made.code, made.stderr).toBe(0);
  return join(work, name);
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error(`test setup: ${from} not in ${file}`);
  await writeFile(file, text.replace(from, to));
}

describe("a hostile tournament folder", () => {
  it("a match id given twice in tournament.md is refused by name, and nothing is run or written", async () => {
    const dir = await newTournament("duplicated");
    // The second match, with its players swapped, points at the first match's folder.
    await edit(
      join(dir, "tournament.md"),
      "- id: m01-replay-bob-vs-replay-alice",
      "- id: m01-replay-alice-vs-replay-bob",
    );
    const before = await folderFingerprint(dir);
    for (const args of [
      ["tournament", "run", dir],
      ["tournament", "report", dir],
    ]) {
      const refused = debate(args);
      expect(refused.code, args.join(" ")).not.toBe(0);
      expect(refused.stderr).toContain("tournament.md");
      expect(refused.stderr).toContain('matches[1].id "m01-replay-alice-vs-replay-bob"');
    }
    expect(await folderFingerprint(dir)).toEqual(before);
  });

  it("a match folder that is a symlink out of the tournament is refused, and nothing is written outside", async () => {
    const dir = await newTournament("linked");
    const outside = join(work, "outside");
    await mkdir(outside);
    const id = "m01-replay-alice-vs-replay-bob";
    await rename(join(dir, "debates", id), join(outside, id));
    await symlink(join(outside, id), join(dir, "debates", id));
    const before = { inside: await folderFingerprint(dir), outside: await folderFingerprint(outside) };
    const refused = debate(["tournament", "run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`"debates/${id}"`);
    expect(refused.stderr).toContain("symbolic link");
    expect({ inside: await folderFingerprint(dir), outside: await folderFingerprint(outside) }).toEqual(
      before,
    );
    await expect(stat(join(outside, id, ".debate"))).rejects.toThrow();
  });

  it("a player's command runs only once the user allowed the tournament folder", async () => {
    const dir = await newTournament("commanded");
    const marker = join(work, "MARKER-tournament");
    const seat = `command: ["/bin/sh", "-c", "touch ${marker}"]`;
    // A player's seat in tournament.md names a program.
    const tournament = await readFile(join(dir, "tournament.md"), "utf8");
    await writeFile(
      join(dir, "tournament.md"),
      tournament.replace(
        /(- name: replay:alice\n\s+seat:\n)(\s+)adapter: replay/,
        `$1$2adapter: claude\n$2${seat}`,
      ),
    );
    const before = await folderFingerprint(dir);
    const refused = debate(["tournament", "run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`would run /bin/sh -c 'touch ${marker}'`);
    expect(refused.stderr).toContain(`debate allow ${dir}`);
    expect(await folderFingerprint(dir)).toEqual(before);
    const allowed = debate(["allow", dir]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`runs /bin/sh -c 'touch ${marker}'`);
  });
});
