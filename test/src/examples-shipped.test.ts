import { spawnSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { debate, debateBin, exists, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// `debate example` ships every example of the repository (debates, a review, a tournament, a gate
// setup), and what it prints as `next:` runs offline as printed, in a folder whose name a shell
// would split.

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

describe("debate example", () => {
  it("lists every folder of examples/, and each copy's next lines run as printed", async () => {
    const { root, cwd, env } = await newcomer("examples-");
    roots.push(root);
    // A `debate` on PATH, as a global install gives.
    const bin = join(root, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "debate"), `#!/bin/sh\nexec "${process.execPath}" "${debateBin}" "$@"\n`);
    await chmod(join(bin, "debate"), 0o755);
    const shellEnv = { ...env, PATH: `${bin}:${env.PATH}` };

    const folders = (await readdir(join(repoRoot, "examples"), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    // Every example ships, unless its manifest says it needs this repository, and why.
    const manifests = await Promise.all(
      folders.map(async (name) =>
        JSON.parse(await readFile(join(repoRoot, "examples", name, "example.json"), "utf8")),
      ),
    );
    for (const [i, m] of manifests.entries())
      if (m.ships === false) expect(m.why, folders[i]).toMatch(/\S{10}/);
    const inRepo = folders.filter((_, i) => manifests[i].ships !== false);
    const listed = debate(["example"], { cwd, env });
    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(inRepo);
    expect(inRepo).toContain("tournament-replay");

    for (const name of inRepo) {
      const folder = `my ${name}`;
      const copied = debate(["example", name, folder], { cwd, env });
      expect(copied.code, copied.stderr).toBe(0);
      expect(await exists(join(cwd, folder, "example.json"))).toBe(false);
      const next = [...copied.stdout.matchAll(/^next: (.*)$/gm)].map((m) => m[1]!);
      const see = /^see: (.*)$/m.exec(copied.stdout)?.[1];
      // Something to do, either way: commands that run it, or the file that explains the setup.
      expect(next.length > 0 || see !== undefined, `${name}: ${copied.stdout}`).toBe(true);
      // "Runs offline" only of a copy whose next lines run (below, with no CLI and no network).
      const says = /^created .* \((.*)\)$/m.exec(copied.stdout)?.[1];
      if (next.length > 0) expect(says, name).toBe("recorded answers: runs offline");
      else expect(says, name).not.toMatch(/recorded|offline/);
      if (name === "gate") expect(says).toMatch(/needs? codex and claude|calls codex and claude/);
      if (see) expect(await exists(join(cwd, see.replace(`'${folder}'`, folder)))).toBe(true);
      for (const line of next) {
        const ran = spawnSync("sh", ["-c", line], { cwd, env: shellEnv, encoding: "utf8", timeout: 120_000 });
        expect(ran.status, `${name}: ${line}\n${ran.stdout}${ran.stderr}`).toBe(0);
      }
    }
    // What the runs made: each debate complete, the tournament's leaderboard written.
    expect(await exists(join(cwd, "my tournament-replay", "t", "leaderboard.md"))).toBe(true);
    const status = debate(["status", "my ai-review-gate", "--json"], { cwd, env });
    expect(JSON.parse(status.stdout)).toMatchObject([{ phase: "complete" }]);
  }, 240_000);
});
