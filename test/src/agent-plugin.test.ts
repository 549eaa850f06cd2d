import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { splitFrontmatter } from "@debatekit/files";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// The Claude Code plugin and marketplace manifests, checked against their shape as Claude Code
// documents it (plugins reference: `.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`,
// command files with `description` / `argument-hint` / `allowed-tools` frontmatter, `.mcp.json`
// with `mcpServers`). The real pinned claude validates and loads them in
// src/cli/agents.cli.test.ts; this is the fast check that names the field.
const kebab = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$";
const semver = "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$";
const author = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", minLength: 1 }, email: { type: "string" }, url: { type: "string" } },
  additionalProperties: false,
};
const pluginSchema = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", pattern: kebab },
    version: { type: "string", pattern: semver },
    description: { type: "string", minLength: 1 },
    author,
    homepage: { type: "string", pattern: "^https://" },
    repository: { type: "string" },
    license: { type: "string" },
    keywords: { type: "array", items: { type: "string" } },
    commands: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    agents: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    skills: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    hooks: { anyOf: [{ type: "string" }, { type: "object" }] },
    mcpServers: { anyOf: [{ type: "string" }, { type: "object" }] },
  },
  additionalProperties: false,
};
const marketplaceSchema = {
  type: "object",
  required: ["name", "owner", "plugins"],
  properties: {
    $schema: { type: "string" },
    name: { type: "string", pattern: kebab },
    owner: author,
    description: { type: "string" },
    version: { type: "string", pattern: semver },
    metadata: { type: "object" },
    plugins: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["name", "source"],
        properties: {
          name: { type: "string", pattern: kebab },
          source: {
            anyOf: [
              { type: "string", pattern: "^\\./" },
              {
                type: "object",
                required: ["source"],
                properties: { source: { enum: ["github", "url", "git-subdir", "npm"] } },
              },
            ],
          },
          description: { type: "string" },
          version: { type: "string", pattern: semver },
          author,
          category: { type: "string" },
          tags: { type: "array", items: { type: "string" } },
          strict: { type: "boolean" },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};
const commandSchema = {
  type: "object",
  required: ["description"],
  properties: {
    description: { type: "string", minLength: 10 },
    "argument-hint": { type: "string" },
    "allowed-tools": { type: "string" },
    model: { type: "string" },
  },
  additionalProperties: false,
};
const mcpConfigSchema = {
  type: "object",
  required: ["mcpServers"],
  properties: {
    mcpServers: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["command"],
        properties: {
          command: { type: "string" },
          args: { type: "array", items: { type: "string" } },
          env: { type: "object" },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

const ajv = new Ajv2020({ allErrors: true, strict: true });
function check(schema: object, value: unknown): string[] {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

const plugin = join(repoRoot, "apps/debate/plugin");
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

describe("the Claude Code plugin", () => {
  it("has a marketplace and a plugin manifest in their documented shape, pointing at each other", async () => {
    const market = await readJson(join(repoRoot, ".claude-plugin/marketplace.json"));
    expect(check(marketplaceSchema, market)).toEqual([]);
    const manifest = await readJson(join(plugin, ".claude-plugin/plugin.json"));
    expect(check(pluginSchema, manifest)).toEqual([]);
    const entry = (market.plugins as Array<{ name: string; source: string; version: string }>)[0]!;
    expect(join(repoRoot, entry.source)).toBe(join(plugin, "/").replace(/\/$/, ""));
    expect(entry.name).toBe(manifest.name);
    expect(entry.version).toBe(manifest.version);
    const cli = await readJson(join(repoRoot, "apps/debate/package.json"));
    expect(manifest.version).toBe(cli.version);
    expect(cli.files).toContain("plugin");
  });

  it("a broken manifest is refused by the same check (the check can fail)", () => {
    expect(check(pluginSchema, { name: "Debate Kit", version: "1", extra: true })).toEqual(
      expect.arrayContaining([
        "/ must NOT have additional properties",
        '/name must match pattern "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"',
        '/version must match pattern "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$"',
      ]),
    );
    expect(
      check(marketplaceSchema, { name: "debatekit", plugins: [{ name: "x", source: "apps/x" }] }),
    ).toEqual(
      expect.arrayContaining([
        "/ must have required property 'owner'",
        '/plugins/0/source must match pattern "^\\./"',
      ]),
    );
  });

  it("has the five commands and a skill, each with its frontmatter, and the MCP server of `debate mcp`", async () => {
    const commands = (await readdir(join(plugin, "commands"))).sort();
    expect(commands).toEqual([
      "debate-new.md",
      "debate-report.md",
      "debate-review.md",
      "debate-run.md",
      "debate-serve.md",
    ]);
    for (const name of commands) {
      const doc = splitFrontmatter(await readFile(join(plugin, "commands", name), "utf8"), name);
      if (!doc.ok) throw new Error(doc.errors[0]!.message);
      expect(check(commandSchema, doc.value.data), name).toEqual([]);
      expect(doc.value.body, name).toContain("$ARGUMENTS");
      // Every tool a command allows is one `debate mcp` has, under the plugin's server name.
      const allowed = String(doc.value.data["allowed-tools"]).split(/,\s*/);
      for (const tool of allowed.filter((t) => t.startsWith("mcp__")))
        expect(tool, name).toMatch(
          /^mcp__plugin_debatekit_debatekit__debate_(new|run|status|read|answer|report)$/,
        );
    }
    const skill = splitFrontmatter(
      await readFile(join(plugin, "skills/debatekit/SKILL.md"), "utf8"),
      "SKILL.md",
    );
    if (!skill.ok) throw new Error(skill.errors[0]!.message);
    expect(skill.value.data).toMatchObject({ name: "debatekit" });
    expect(String(skill.value.data.description).length).toBeGreaterThan(50);
    const mcp = await readJson(join(plugin, ".mcp.json"));
    expect(check(mcpConfigSchema, mcp)).toEqual([]);
    expect((mcp.mcpServers as Record<string, { args: string[] }>).debatekit!.args).toEqual([
      "-y",
      "@debatekit/cli",
      "mcp",
    ]);
  });
});

describe("debate setup opencode", () => {
  const run = promisify(execFile);
  const bin = join(repoRoot, "apps/debate/dist/bin.js");
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "setup-opencode-"));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("writes the commands and keeps the rest of an existing opencode.json", async () => {
    await writeFile(
      join(work, "opencode.json"),
      JSON.stringify({
        model: "anthropic/claude-sonnet-4-5",
        mcp: { other: { type: "remote", url: "http://x" } },
      }),
    );
    const setup = await run(process.execPath, [bin, "setup", "opencode"], { cwd: work });
    const config = await readJson(join(work, "opencode.json"));
    expect(config.model).toBe("anthropic/claude-sonnet-4-5");
    // This install, by absolute path: it works before (and without) a published package.
    const command = [process.execPath, bin, "mcp"];
    expect(config.mcp).toEqual({
      other: { type: "remote", url: "http://x" },
      debatekit: { type: "local", command, enabled: true },
    });
    expect(setup.stdout).toContain(
      `OpenCode starts it with ${JSON.stringify(command)} (this install of debate`,
    );
    // The command written starts a server that answers.
    const started = spawnSync(command[0]!, command.slice(1), {
      cwd: work,
      input: `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      })}\n`,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(started.stdout.split("\n")[0]!)).toMatchObject({ id: 1, result: { serverInfo: {} } });
    const commands = (await readdir(join(work, ".opencode/command"))).sort();
    expect(commands).toEqual([
      "debate-new.md",
      "debate-report.md",
      "debate-review.md",
      "debate-run.md",
      "debate-serve.md",
    ]);
    const text = await readFile(join(work, ".opencode/command/debate-review.md"), "utf8");
    expect(text).toMatch(/^---\ndescription: Review a file, a git change or a proposal/);
    expect(text).not.toContain("allowed-tools");
    expect(text).toContain("$ARGUMENTS");
  });

  it("refuses an opencode.json that is not JSON, naming it, and writes nothing", async () => {
    const dir = join(work, "broken");
    await run(process.execPath, [bin, "setup", "opencode", "--dir", "broken"], { cwd: work });
    await writeFile(join(dir, "opencode.json"), "{ // a comment\n}");
    const failed = await run(process.execPath, [bin, "setup", "opencode", "--dir", "broken"], {
      cwd: work,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^debate: .*broken\/opencode\.json: expected JSON/);
    expect(await readFile(join(dir, "opencode.json"), "utf8")).toBe("{ // a comment\n}");
  });
});
