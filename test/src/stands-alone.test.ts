import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The repository stands on its own: no file cites a document kept outside it, or an issue number
// a reader of the code cannot look up. What the code relies on is explained in docs/architecture.md,
// and every link to one of its headings must lead somewhere.
// The repository root, worked out here so this test needs nothing built.
const repoRoot = new URL("../../", import.meta.url).pathname;
const ARCHITECTURE = "docs/architecture.md";
const THIS_FILE = relative(repoRoot, new URL(import.meta.url).pathname);

/** Every tracked regular text file, with its content (symlinks and binary files are left out). */
function trackedTexts(): Array<{ file: string; text: string }> {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && file !== THIS_FILE);
  const texts: Array<{ file: string; text: string }> = [];
  for (const file of files) {
    const path = join(repoRoot, file);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    const text = readFileSync(path, "utf8");
    if (!text.includes("\0")) texts.push({ file, text });
  }
  return texts;
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

// The dialectic fixture the tests read lives beside the repository: a path to test data, not a citation.
const FIXTURE_PATH = /(?:\.\.\/)+shared\/fixtures\/dialectic\//g;
const OUTSIDE_CITATIONS: Array<{ what: string; pattern: RegExp }> = [
  { what: "a DESIGN section", pattern: /DESIGN(?:\.md)? ?(?:§|\\u00a7)/i },
  { what: "DESIGN.md", pattern: /DESIGN\.md/ },
  { what: "a file in ../shared/", pattern: /\.\.\/shared\// },
  { what: "an issue number", pattern: /\bissues? #?\d+/i },
];

describe("the repository stands on its own", () => {
  const texts = trackedTexts();

  it("reads the tracked files", () => {
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.some(({ file }) => file === "README.md")).toBe(true);
  });

  it("cites no document outside it and no issue number", () => {
    const found: string[] = [];
    for (const { file, text } of texts) {
      if (/(^|\/)CHANGELOG\.md$/.test(file)) continue;
      text
        .replace(FIXTURE_PATH, "")
        .split("\n")
        .forEach((line, i) => {
          for (const { what, pattern } of OUTSIDE_CITATIONS)
            if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 160)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("links every architecture anchor to a heading that exists", () => {
    const page = texts.find(({ file }) => file === ARCHITECTURE);
    expect(page, `${ARCHITECTURE} is tracked`).toBeDefined();
    const anchors = new Set(
      [...page!.text.matchAll(/^#{1,6} +(.+)$/gm)].map((heading) => anchorOf(heading[1]!)),
    );
    const broken: string[] = [];
    let links = 0;
    for (const { file, text } of texts)
      for (const link of text.matchAll(/docs\/architecture\.md#([^\s)`'",;:.]+)/g)) {
        links++;
        if (!anchors.has(link[1]!)) broken.push(`${file}: #${link[1]}`);
      }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(50);
  });

  it("resolves every markdown link to the architecture page from the file that holds it", () => {
    const wrong: string[] = [];
    for (const { file, text } of texts) {
      if (!file.endsWith(".md")) continue;
      for (const link of text.matchAll(/\]\(([^)#\s]*architecture\.md)(?:#[^)]*)?\)/g))
        if (join(dirname(file), link[1]!) !== ARCHITECTURE) wrong.push(`${file}: ${link[1]}`);
    }
    expect(wrong).toEqual([]);
  });

  it("links the architecture page from the root README", () => {
    expect(readFileSync(join(repoRoot, "README.md"), "utf8")).toContain(`](${ARCHITECTURE})`);
  });
});
