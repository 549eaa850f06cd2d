import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runDebateBin } from "./workspace.js";

// A project someone hands you runs no code: the modules its config's `formats` names (and a
// JavaScript config itself) load only once the user ran `debate allow` on the project folder, as
// the module is now. Every command below runs the built binary in a real temp folder whose module
// writes a marker file when it is imported.

const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/ai-review-gate");

let work: string;
let home: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "config-consent-"));
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

/** A module that writes `marker` when imported and exports a format core's shape check accepts. */
function markingModule(marker: string, name: string): string {
  const methods = ["validateFrontmatter", "isRecordCommitted", "seat", "next", "prompt", "skillTask"]
    .concat(["parseAnswer", "apply", "checkCommitted", "standing", "newDebate"])
    .map((m) => `  ${m}() { throw new Error("not called"); },`);
  return `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(marker)}, "imported\\n");
export default {
  name: ${JSON.stringify(name)},
  roles: [], seats: [], folders: [], records: [], phases: {},
  unit: { one: "turn", many: "turns" },
  reset: { supported: false, reason: "a test module" },
  newOptions: { seats: [], length: { flag: "turns", description: "turns", default: 1, min: 1, max: 1 } },
${methods.join("\n")}
};
`;
}

/** A received project: `configFile` with `content`, evil.mjs, and a debate folder (the example's). */
async function received(name: string, configFile: string, content: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, "debates"), { recursive: true });
  await cp(example, join(dir, "debates/d1"), { recursive: true });
  await writeFile(join(dir, "evil.mjs"), markingModule(join(dir, "MARKER"), `evil-${name}`));
  await writeFile(join(dir, configFile), content);
  return dir;
}

const debate = (cwd: string, args: string[]) => runDebateBin(args, { cwd, home });

/** Starts `debate args` (a server), waits until stdout matches `ready` or it writes `send`'s answer, then stops it. */
async function briefly(
  cwd: string,
  args: string[],
  ready: RegExp,
  send?: string,
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", CI: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  if (send) child.stdin.write(send);
  const deadline = Date.now() + 20_000;
  while (!ready.test(stdout) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  expect(stdout, stderr).toMatch(ready);
  return { stdout, stderr };
}

const initialize = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "test", version: "1" } },
})}\n`;

/** Every command that reads a folder before you trust it, and the servers an agent or a person starts in it. */
async function everyCommand(dir: string): Promise<Array<{ command: string; stderr: string }>> {
  const said: Array<{ command: string; stderr: string }> = [];
  for (const args of [
    ["status", "debates/d1"],
    ["log", "debates/d1"],
    ["report", "debates/d1"],
    ["allow", "debates/d1"],
    ["doctor", "debates/d1"],
    ["deny", "debates/d1"],
    ["completion", "bash"],
    ["skills", "list"],
    ["example"],
  ]) {
    const ran = debate(dir, args);
    said.push({ command: args.join(" "), stderr: ran.stderr });
  }
  const serve = await briefly(dir, ["serve", "debates", "--port", "0"], /open http:\/\/127\.0\.0\.1:\d+/);
  said.push({ command: "serve", stderr: serve.stderr });
  const mcp = await briefly(dir, ["mcp", "--dir", "debates"], /"id":1/, initialize);
  said.push({ command: "mcp", stderr: mcp.stderr });
  return said;
}

describe("a received project's config runs no code until the user allows it", () => {
  for (const [name, file, content] of [
    ["config-json", "debatekit.config.json", `${JSON.stringify({ formats: ["./evil.mjs"] })}\n`],
    [
      "package-json",
      "package.json",
      `${JSON.stringify({ name: "received", debatekit: { formats: ["./evil.mjs"] } })}\n`,
    ],
  ] as const) {
    it(`${file}: no command imports its formats; debate allow loads them; a changed module needs allow again`, async () => {
      const dir = await received(name, file, content);
      const marker = join(dir, "MARKER");
      const note = `${file} names formats that are not allowed yet (./evil.mjs): none of them was loaded. Check them, then allow them with \`debate allow .\``;
      for (const { command, stderr } of await everyCommand(dir)) {
        expect(await exists(marker), command).toBe(false);
        expect(stderr, command).toContain(note);
      }

      const allowed = debate(dir, ["allow", "."]);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain(`formats[0]  ./evil.mjs (${join(dir, "evil.mjs")})`);
      expect(await exists(marker)).toBe(false);
      const status = debate(dir, ["status", "debates/d1"]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stderr).not.toContain("not allowed");
      expect(await readFile(marker, "utf8")).toBe("imported\n");
      // The format is registered: `new --format` takes its name.
      const help = debate(dir, ["new", "--format", `evil-${name}`, "--help"]);
      expect(help.stderr).not.toMatch(/unknown format|no format/i);

      await rm(marker);
      await writeFile(join(dir, "evil.mjs"), `${await readFile(join(dir, "evil.mjs"), "utf8")}// edited\n`);
      const edited = debate(dir, ["status", "debates/d1"]);
      expect(edited.stderr).toContain(note);
      expect(await exists(marker)).toBe(false);

      expect(debate(dir, ["allow", "."]).code).toBe(0);
      const denied = debate(dir, ["deny", "."]);
      expect(denied.stdout).toContain("no longer loads");
      // deny itself started while the formats were allowed (so they loaded): what counts is after.
      await rm(marker, { force: true });
      expect(debate(dir, ["status", "debates/d1"]).stderr).toContain(note);
      expect(await exists(marker)).toBe(false);
    });
  }

  it("debatekit.config.mjs: no command runs it; debate allow does, until its content changes", async () => {
    const dir = join(work, "code-config");
    await mkdir(join(dir, "debates"), { recursive: true });
    await cp(example, join(dir, "debates/d1"), { recursive: true });
    const marker = join(dir, "MARKER");
    const code = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "imported\\n");\nexport default { formats: [] };\n`;
    await writeFile(join(dir, "debatekit.config.mjs"), code);
    const note =
      "debatekit.config.mjs: is code (a JavaScript config), which you have not allowed; nothing of it was loaded. Check it, then allow it with `debate allow .`";
    for (const { command, stderr } of await everyCommand(dir)) {
      expect(await exists(marker), command).toBe(false);
      expect(stderr, command).toContain(note);
    }
    // A command that reads the config ends with the same words, having run nothing.
    const created = debate(dir, ["new", "A motion", "--dir", "debates"]);
    expect(created.code).toBe(2);
    expect(created.stderr).toContain(note);
    expect(await exists(marker)).toBe(false);

    expect(debate(dir, ["allow", "."]).code).toBe(0);
    expect(debate(dir, ["status", "debates/d1"]).code).toBe(0);
    expect(await exists(marker)).toBe(true);
    await rm(marker);
    await writeFile(join(dir, "debatekit.config.mjs"), `${code}// edited\n`);
    expect(debate(dir, ["status", "debates/d1"]).stderr).toContain(note);
    expect(await exists(marker)).toBe(false);
  });
});
