// The dependency rules of docs/architecture.md#layers, checked on the sources by scripts/check-deps.mjs.
// A package imports another through its built entry (dist/), so a rule on `packages/<name>/` holds for
// a source import and for a package import alike.

/** A rule that forbids `from` importing `to` (paths relative to the repository root). */
function forbid(name, comment, from, to) {
  return { name, comment, severity: "error", from, to };
}

const SHARED_CORE = "^packages/core/src/(?!formats/[^/]+/|index\\.ts$)";
const CLI = "^apps/debate/src/";

module.exports = {
  forbidden: [
    forbid(
      "no-circular",
      "a cycle of imports (type-only ones too): a module's dependencies are read before it",
      {},
      { circular: true },
    ),
    forbid(
      "package-import-resolves",
      "a @debatekit import resolves to a built package listed in package.json (build first), so the layer rules can see it",
      {},
      { path: "^@debatekit/", couldNotResolve: true },
    ),
    // Left may import right, never the reverse: cli, tournament, runner/report, core/files/skills/adapters, schema.
    forbid(
      "schema-imports-no-package",
      "schema is the bottom layer: generated types and validators only",
      { path: "^packages/schema/" },
      { path: "^(apps/|packages/(?!schema/))" },
    ),
    forbid(
      "base-layer-imports-no-engine",
      "core, files, skills and the adapters never import the runner, the report, the tournament or the CLI",
      { path: "^packages/(core|files|skills|adapters)/" },
      { path: "^(apps/|packages/(runner|report|tournament)/)" },
    ),
    forbid(
      "runner-report-import-no-tournament",
      "the runner and the report never import the tournament or the CLI, nor each other",
      { path: "^packages/(runner|report)/" },
      { path: "^(apps/|packages/(tournament|runner|report)/)", pathNot: "^packages/$1/" },
    ),
    forbid(
      "tournament-imports-no-cli",
      "the tournament never imports the CLI",
      { path: "^packages/tournament/" },
      { path: "^apps/" },
    ),
    // Inside the base layer only these edges exist: files reads and writes what core decides; the
    // adapter kit redacts with core's one definition of a secret; adapters share the kit; the file seats
    // (replay, manual) use files' path checks and core's errors; ACP runs opencode with its own switches.
    forbid(
      "core-imports-no-sibling",
      "core is pure: no files, skills or adapters",
      { path: "^packages/core/" },
      {
        path: "^packages/(files|skills|adapters)/",
      },
    ),
    forbid(
      "files-imports-only-core",
      "files uses core only",
      { path: "^packages/files/" },
      {
        path: "^packages/(skills|adapters)/",
      },
    ),
    forbid(
      "skills-import-no-sibling",
      "skills stands alone",
      { path: "^packages/skills/" },
      {
        path: "^packages/(core|files|adapters)/",
      },
    ),
    forbid(
      "adapter-kit-imports-only-core",
      "the adapter kit uses core only",
      { path: "^packages/adapters/adapter-kit/" },
      { path: "^packages/(files|skills|adapters/(?!adapter-kit/))" },
    ),
    forbid(
      "adapter-imports-only-kit",
      "an adapter uses the kit (the file seats, replay and manual, use files and core too)",
      { path: "^packages/adapters/(?!adapter-kit/|replay/|manual/)" },
      { path: "^packages/(core|files|skills)/" },
    ),
    forbid(
      "file-seat-imports-no-skills",
      "replay and manual use the kit, files and core",
      {
        path: "^packages/adapters/(replay|manual)/",
      },
      { path: "^packages/skills/" },
    ),
    forbid(
      "adapter-imports-no-adapter",
      "an adapter never imports another adapter (ACP runs opencode and qwen with their own switches)",
      { path: "^packages/adapters/(?!adapter-kit/)([^/]+)/" },
      {
        path: "^packages/adapters/",
        pathNot: ["^packages/adapters/(adapter-kit|$1)/", "^packages/adapters/(opencode|qwen)/"],
      },
    ),
    forbid(
      "only-acp-imports-opencode",
      "of the adapters only ACP imports opencode or qwen",
      { path: "^packages/adapters/(?!acp/)([^/]+)/" },
      { path: "^packages/adapters/(opencode|qwen)/", pathNot: "^packages/adapters/$1/" },
    ),
    // A shared core module serves every format: it never reaches into one format's folder.
    forbid(
      "shared-core-imports-no-format",
      "shared core code never imports one format's folder (the registry, its declarations and the index list them)",
      {
        path: SHARED_CORE,
        pathNot: "^packages/core/src/formats/(registry|declarations)\\.ts$|\\.test\\.ts$|/test-helpers/",
      },
      { path: "^packages/core/src/formats/[^/]+/" },
    ),
    // The CLI: actions return data; commands and the MCP server are faces over them.
    forbid(
      "actions-import-no-face",
      "an action never imports a command, the MCP server or the watch output",
      { path: `${CLI}actions/` },
      { path: `${CLI}(commands/|mcp/|watch/format\\.ts$)` },
    ),
    forbid(
      "command-imports-no-command",
      "a command never imports another command (commands/index.ts lists them; lazy.ts is shared)",
      { path: `${CLI}commands/([^./]+)\\.`, pathNot: `${CLI}commands/index\\.ts$` },
      { path: `${CLI}commands/`, pathNot: [`${CLI}commands/$1\\.`, `${CLI}commands/lazy\\.ts$`] },
    ),
    forbid(
      "face-imports-no-command",
      "a face (the MCP server, the web page) calls actions, never a command, another face or the CLI's entry",
      { path: `${CLI}(mcp|serve)/` },
      { path: `${CLI}(commands/|main\\.ts$|mcp/|serve/)`, pathNot: `${CLI}$1/` },
    ),
  ],
  options: {
    doNotFollow: { path: "(^|/)(dist|node_modules)/" },
    exclude: { path: "(^|/)(node_modules|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["types", "import", "default"],
      extensions: [".ts", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
