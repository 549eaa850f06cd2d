import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderFingerprint, repoRoot, runDebateBin } from "./workspace.js";

// A debate folder is data someone may hand over: a seat's `command:` runs only once the user
// allowed it for that folder (`debate allow`, recorded outside the folder), and `debate doctor`
// never starts it. Everything runs through the built `debate` binary, with a HOME of its own.

const example = join(repoRoot, "examples/ai-review-gate");

let work: string;
let home: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "consent-"));
  home = join(work, "home");
  await mkdir(home);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A copy of the example debate whose proposition seat is `seat` (a YAML flow mapping). */
async function debateWith(name: string, seat: string): Promise<string> {
  const dir = join(work, name);
  await cp(example, dir, { recursive: true });
  const file = join(dir, "debate.md");
  const text = await readFile(file, "utf8");
  await writeFile(
    file,
    text.replace("proposition: { adapter: replay, file: replay.jsonl }", `proposition: ${seat}`),
  );
  return dir;
}

const shellSeat = (marker: string) => `{ adapter: claude, command: ["/bin/sh", "-c", "touch ${marker}"] }`;

const debate = (args: string[]) => runDebateBin(args, { cwd: work, home });

describe("a seat's command runs only once the user allowed it", () => {
  it("debate run refuses a folder whose command is not allowed, before anything is written; allow runs it; an edit needs allow again", async () => {
    const marker = join(work, "MARKER");
    const dir = await debateWith("shell-seat", shellSeat(marker));
    const before = await folderFingerprint(dir);

    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("seat `seats.proposition` would run /bin/sh -c 'touch");
    expect(refused.stderr).toContain(`debate allow ${dir}`);
    expect(await exists(marker)).toBe(false);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(join(dir, ".debate"))).toBe(false);

    const allowed = debate(["allow", dir]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`seats.proposition  runs /bin/sh -c 'touch ${marker}'`);
    // Recorded outside the folder, in the user's state folder.
    expect(await exists(join(home, ".local/state/debatekit/allowed.json"))).toBe(true);
    expect(await folderFingerprint(dir)).toEqual(before);

    debate(["run", dir]);
    expect(await exists(marker)).toBe(true);

    // Another program in the same seat: not what was allowed.
    const other = join(work, "MARKER2");
    await writeFile(
      join(dir, "debate.md"),
      (await readFile(join(dir, "debate.md"), "utf8")).replace(`touch ${marker}`, `touch ${other}`),
    );
    const again = debate(["run", dir]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`would run /bin/sh -c 'touch ${other}'`);
    expect(await exists(other)).toBe(false);
  });

  it("debate deny takes an allowance back", async () => {
    const marker = join(work, "MARKER-deny");
    const dir = await debateWith("denied", shellSeat(marker));
    expect(debate(["allow", dir]).code).toBe(0);
    expect(debate(["deny", dir]).stdout).toContain("no longer run");
    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("which you have not allowed");
    expect(await exists(marker)).toBe(false);
  });

  it("debate doctor <folder> does not start a command it was not allowed to run, and says what it would run", async () => {
    const marker = join(work, "MARKER-doctor");
    const dir = await debateWith("doctor", shellSeat(marker));
    const before = await folderFingerprint(dir);
    const report = debate(["doctor", dir]);
    expect(await exists(marker)).toBe(false);
    expect(report.stdout).toContain(`would run /bin/sh -c 'touch ${marker}'`);
    expect(report.stdout).toContain(`debate allow ${dir}`);
    expect(report.stdout).not.toContain("tools      none (safe: cannot act on the machine)");
    expect(report.code).toBe(1);
    expect(await folderFingerprint(dir)).toEqual(before);
    // Once allowed, the seat's program is named, never called safe.
    expect(debate(["allow", dir]).code).toBe(0);
    expect(debate(["doctor", dir]).stdout).toContain(
      `tools      none asked of its own command /bin/sh -c 'touch ${marker}' (you allowed it`,
    );
  });

  it.each([
    ["/", "/"],
    ["the home folder", "HOME"],
  ])("a workspace of %s is refused, and no allow can change that", async (_name, where) => {
    const path = where === "HOME" ? home : where;
    const dir = await debateWith(
      `workspace-${where === "/" ? "root" : "home"}`,
      `{ adapter: claude, tools: read, workspace: ${JSON.stringify(path)} }`,
    );
    const before = await folderFingerprint(dir);
    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("`seats.proposition.workspace`");
    expect(refused.stderr).toContain("may not read the whole machine or the home folder");
    expect(debate(["allow", dir]).code).toBe(2);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(join(dir, ".debate"))).toBe(false);
  });

  it("the offline example runs with no allowance: replay seats run no program", async () => {
    const dir = join(work, "offline");
    await cp(example, dir, { recursive: true });
    const ran = debate(["run", dir, "--exchanges", "1"]);
    expect(ran.code, ran.stderr).toBe(0);
  });
});
