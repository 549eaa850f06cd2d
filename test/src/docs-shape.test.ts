import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The documents keep their jobs apart: CONTRACT.md holds the invariants (the API surface is each
// package's generated etc/*.api.md), a package README says what the package is, shows one usage
// example and the decisions a user needs, and every figure lives in bench/README.md with the
// command that printed it. Needs nothing built.
const repoRoot = new URL("../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

/** The README of every published package (the folders `pnpm pack` ships). */
function packageReadmes(): string[] {
  return ["packages", "packages/adapters", "apps"]
    .flatMap((parent) =>
      readdirSync(join(repoRoot, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(repoRoot, parent, entry.name)),
    )
    .filter((dir) => existsSync(join(dir, "package.json")))
    .filter((dir) => !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private)
    .map((dir) => relative(repoRoot, join(dir, "README.md")));
}

/** A README bigger than this has become a design log again (the CLI's, the users' manual, gets twice as much). */
const README_MAX_BYTES = 10_000;
const CLI_README_MAX_BYTES = 2 * README_MAX_BYTES;

describe("the documents keep their jobs apart", () => {
  it("CONTRACT.md is at most 80 lines of invariants, with no signatures", () => {
    const contract = read("CONTRACT.md");
    expect(contract.trimEnd().split("\n").length).toBeLessThanOrEqual(80);
    expect(contract).not.toMatch(/^```/m);
  });

  it("the architecture page describes the format seam, its actions and faces, and how to add a format", () => {
    const headings = [...read("docs/architecture.md").matchAll(/^#{2,3} +(.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(
      expect.arrayContaining([
        "The format seam",
        "Layers checked by a tool",
        "Actions and faces",
        "Adding a format",
        "Known limits",
      ]),
    );
  });

  it("package READMEs are short and leave figures to bench/README.md", () => {
    const found: string[] = [];
    for (const file of packageReadmes()) {
      const text = read(file);
      const max = file === "apps/debate/README.md" ? CLI_README_MAX_BYTES : README_MAX_BYTES;
      const bytes = Buffer.byteLength(text);
      if (bytes > max) found.push(`${file}: ${bytes} bytes, more than ${max}`);
      for (const [, heading] of text.matchAll(/^#{2,4} +(.*(?:Benchmark|Figures|Speed|Measured).*)$/gm))
        found.push(`${file}: a "${heading}" section (figures belong in bench/README.md)`);
    }
    expect(found).toEqual([]);
  });
});
