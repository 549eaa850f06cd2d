import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allowFolder, assertAllowed, loadConsent, readFolderPrograms, unallowedPrograms } from "./consent.js";

let base: string;
let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "consent-"));
  dir = join(base, "debate");
  await mkdir(dir);
  env = { HOME: join(base, "home") };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const debateMd = (seats: string) =>
  `---\ndebate_id: d\nformat: formal\nseats:\n${seats}\n---\n\n# Motion\n\nx\n`;

describe("consent to a folder's programs", () => {
  it("a script inside the folder that a command names is part of what was allowed", async () => {
    const script = join(dir, "seat.sh");
    await writeFile(script, "echo one\n");
    await writeFile(
      join(dir, "debate.md"),
      debateMd(`  proposition: { adapter: claude, command: [/bin/sh, ${script}] }`),
    );
    await allowFolder(await readFolderPrograms(dir, { env }), env, new Date());
    expect(unallowedPrograms(await loadConsent(env), await readFolderPrograms(dir, { env }))).toEqual([]);
    await writeFile(script, "touch pwned\n");
    const found = await readFolderPrograms(dir, { env });
    expect(unallowedPrograms(await loadConsent(env), found).map((p) => p.seat)).toEqual([
      "seats.proposition",
    ]);
    expect(() => assertAllowed({ folders: {}, allowCommands: [] }, found, "debate allow d")).toThrow(
      /seat `seats\.proposition` would run \/bin\/sh .*seat\.sh/,
    );
  });

  it("finds seats anywhere in the frontmatter (a judge panel), and a workspace outside the folder", async () => {
    const outside = join(base, "repo");
    await mkdir(outside);
    await writeFile(
      join(dir, "debate.md"),
      debateMd(
        `  proposition: { adapter: codex, tools: read, workspace: ${outside} }\njudges:\n  panel:\n    - { adapter: acp, command: [kiro-cli, acp] }`,
      ),
    );
    const found = await readFolderPrograms(dir, { env });
    expect(found.programs.map((p) => [p.seat, p.kind, p.shown])).toEqual([
      ["seats.proposition", "workspace", `reads ${outside}`],
      ["judges.panel.0", "command", "kiro-cli acp"],
    ]);
    // The user's own config allows the command everywhere; the workspace still needs `debate allow`.
    const consent = { folders: {}, allowCommands: [["kiro-cli", "acp"]] };
    expect(unallowedPrograms(consent, found).map((p) => p.kind)).toEqual(["workspace"]);
  });

  it("a seat env variable that decides what code runs needs consent, unless it only passes the caller's own on", async () => {
    await writeFile(
      join(dir, "debate.md"),
      debateMd(
        `  proposition: { adapter: claude, env: { NODE_OPTIONS: "--require /tmp/x.js", HTTPS_PROXY: "http://p:1" } }\n  opposition: { adapter: claude, env: { NODE_OPTIONS: "\${NODE_OPTIONS}" } }`,
      ),
    );
    const found = await readFolderPrograms(dir, { env });
    expect(found.programs.map((p) => [p.seat, p.kind, p.shown])).toEqual([
      ["seats.proposition", "env", "sets NODE_OPTIONS='--require /tmp/x.js'"],
    ]);
    expect(() => assertAllowed({ folders: {}, allowCommands: [] }, found, "debate allow d")).toThrow(
      /sets NODE_OPTIONS='--require \/tmp\/x\.js' \(it decides what code the CLI runs\)/,
    );
  });
});
