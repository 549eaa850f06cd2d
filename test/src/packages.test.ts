import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publishablePackages, repoRoot } from "./workspace.js";

const packages = publishablePackages();
const tmp = mkdtempSync(join(tmpdir(), "debatekit-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The dependency direction of the layers is checked on the imports by scripts/check-deps.mjs, with the
// rules of .dependency-cruiser.cjs; these cases prove each kind of rule catches what it is for.
describe("the dependency rules", () => {
  /** Runs the repository's rules over a small tree laid out like the repository; returns each broken rule and its edge. */
  function violations(files: Record<string, string>): string[] {
    const dir = mkdtempSync(join(tmp, "deps-"));
    copyFileSync(join(repoRoot, "tsconfig.base.json"), join(dir, "tsconfig.base.json"));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const config = join(repoRoot, ".dependency-cruiser.cjs");
    const cruise = spawnSync(
      join(repoRoot, "node_modules/.bin/depcruise"),
      ["packages", "apps", "--config", config, "--output-type", "json"],
      { cwd: dir, encoding: "utf8" },
    );
    const result = JSON.parse(cruise.stdout) as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
    };
    return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  }

  it("report cycles (type-only ones too), layers, shared core code, and faces over actions", () => {
    const found = violations({
      "packages/core/src/a.ts": 'import type { B } from "./b.js";\nexport type A = B[];\n',
      "packages/core/src/b.ts": 'import type { A } from "./a.js";\nexport type B = A | 1;\n',
      "packages/core/src/judge.ts":
        'import "./formats/formal/scoring.js";\nimport "../../files/src/index.js";\n',
      "packages/core/src/formats/formal/scoring.ts": "export {};\n",
      "packages/files/src/index.ts": 'import "../../core/src/judge.js";\n',
      "packages/runner/src/index.ts": 'import "../../report/src/index.js";\n',
      "packages/report/src/index.ts": "export {};\n",
      "apps/debate/src/main.ts": "export {};\n",
      "apps/debate/src/actions/create.ts": 'import "../commands/new.js";\n',
      "apps/debate/src/commands/new.ts": 'import "./new.impl.js";\nimport "./lazy.js";\n',
      "apps/debate/src/commands/new.impl.ts": "export {};\n",
      "apps/debate/src/commands/lazy.ts": "export {};\n",
      "apps/debate/src/commands/gate.ts": 'import "./review.js";\n',
      "apps/debate/src/commands/review.ts": "export {};\n",
      "apps/debate/src/mcp/server.ts":
        'import "../main.js";\nimport "../actions/create.js";\nimport "./debates.js";\n',
      "apps/debate/src/mcp/debates.ts": "export {};\n",
      "apps/debate/src/serve/app.ts": 'import "../mcp/server.js";\nimport "../actions/create.js";\n',
    });
    expect(found).toEqual([
      "actions-import-no-face: apps/debate/src/actions/create.ts -> apps/debate/src/commands/new.ts",
      "command-imports-no-command: apps/debate/src/commands/gate.ts -> apps/debate/src/commands/review.ts",
      "core-imports-no-sibling: packages/core/src/judge.ts -> packages/files/src/index.ts",
      "face-imports-no-command: apps/debate/src/mcp/server.ts -> apps/debate/src/main.ts",
      "face-imports-no-command: apps/debate/src/serve/app.ts -> apps/debate/src/mcp/server.ts",
      "no-circular: packages/core/src/a.ts -> packages/core/src/b.ts",
      "no-circular: packages/core/src/judge.ts -> packages/files/src/index.ts",
      "runner-report-import-no-tournament: packages/runner/src/index.ts -> packages/report/src/index.ts",
      "shared-core-imports-no-format: packages/core/src/judge.ts -> packages/core/src/formats/formal/scoring.ts",
    ]);
  });
});

describe("every package publishes on its own", () => {
  it("finds the packages", () => {
    expect(packages.map((p) => p.manifest.name)).toEqual(
      expect.arrayContaining(["@debatekit/schema", "@debatekit/core", "@debatekit/cli"]),
    );
  });

  for (const { dir, manifest } of packages) {
    it(`${manifest.name}: pnpm pack holds dist, types, README and no workspace: ranges`, () => {
      const out = execFileSync("pnpm", ["pack", "--pack-destination", tmp, "--json"], {
        cwd: dir,
        encoding: "utf8",
      });
      const packed = JSON.parse(out) as { filename: string; files: Array<{ path: string }> };
      const paths = packed.files.map((f) => f.path);
      expect(paths).toContain("package.json");
      expect(paths).toContain("README.md");
      expect(paths).toContain("dist/index.js");
      expect(paths).toContain("dist/index.d.ts");
      expect(paths.filter((p) => p.includes(".test.") || p.startsWith("src/"))).toEqual([]);

      const listing = execFileSync("tar", ["-xOzf", packed.filename, "package/package.json"], {
        encoding: "utf8",
      });
      const published = JSON.parse(listing);
      expect(JSON.stringify(published)).not.toContain("workspace:");
      expect(published.type).toBe("module");
      expect(published.exports["."].types).toBe("./dist/index.d.ts");
      expect(published.engines.node).toBe(">=20.19");
      expect(published.sideEffects).toBe(false);
      expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/^# @debatekit\//);
    });
  }
});
