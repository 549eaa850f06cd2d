import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publishablePackages } from "./workspace.js";

const packages = publishablePackages();
const tmp = mkdtempSync(join(tmpdir(), "debatekit-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Left may import right, never the reverse (docs/architecture.md#layers).
const layer: Record<string, number> = {
  "@debatekit/cli": 0,
  "@debatekit/tournament": 1,
  "@debatekit/runner": 2,
  "@debatekit/report": 2,
  "@debatekit/core": 3,
  "@debatekit/files": 3,
  "@debatekit/skills": 3,
  "@debatekit/adapter-kit": 3,
  "@debatekit/schema": 4,
};
function layerOf(name: string): number {
  if (name in layer) return layer[name]!;
  if (name.startsWith("@debatekit/adapter-")) return 3;
  throw new Error(`${name} has no place in the dependency direction of docs/architecture.md`);
}

describe("the dependency direction of the layers", () => {
  for (const { manifest } of packages) {
    it(`${manifest.name} depends only on packages to its right`, () => {
      for (const dep of Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith("@debatekit/"))) {
        const ok =
          layerOf(dep) > layerOf(manifest.name) ||
          // files reads and writes what core decides; adapters use the shared process kit; the kit
          // redacts with core's one definition of a secret (pure), the one the journal check uses
          (manifest.name === "@debatekit/files" && dep === "@debatekit/core") ||
          (manifest.name === "@debatekit/adapter-kit" && dep === "@debatekit/core") ||
          (manifest.name.startsWith("@debatekit/adapter-") && dep === "@debatekit/adapter-kit") ||
          // the file seats read and write inside the debate folder through files' one path and file
          // check (resolveInside, readTextInside) and report its refusals as core's DebatekitError
          (["@debatekit/adapter-replay", "@debatekit/adapter-manual"].includes(manifest.name) &&
            (dep === "@debatekit/files" || dep === "@debatekit/core")) ||
          // an ACP agent that is a known CLI (opencode acp) gets that CLI's own isolation switches
          (manifest.name === "@debatekit/adapter-acp" && dep === "@debatekit/adapter-opencode");
        expect(ok, `${manifest.name} -> ${dep}`).toBe(true);
      }
    });
  }
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
