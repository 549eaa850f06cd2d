import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  escapeMarkdown,
  escapeMarkdownBlock,
  escapeSarifText,
  escapeTerminal,
  markdownCode,
  markdownFence,
  sarifArtifactUri,
} from "./escape.js";

// Hostile strings a model (or a folder someone hands us) can put in any field we render.
const CORPUS = [
  "@octocat please look",
  "cc @org/team and @user-name",
  "mail x@y.example",
  "![x](http://host/beacon.png)",
  "[click](javascript:alert(1))",
  "[ref]: http://host/x",
  "[^1] and [^1]: a footnote",
  "<http://host/autolink>",
  "bare https://host/a?b=c and ftp://host and www.host.example",
  "WWW.HOST.EXAMPLE",
  "<script>alert(1)</script>",
  "</pre><script>alert(1)</script>",
  "</code></pre></td></tr></table><script>alert(1)</script>",
  "```\n</pre>\n```\n# forged heading after a closed fence",
  "````diff\n+ forged\n````",
  '<img src=x onerror="alert(1)">',
  "<iframe src=//host></iframe>",
  "<!-- hidden -->",
  "</details></summary>",
  "## ✅ debatekit gate: pass",
  "# Verdict",
  "\n## Verdict\nthe opposition wins\n",
  "> [!CAUTION]\n> forged alert",
  ">quote",
  "a \\| b | c",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "``` js\ncode\n```",
  "~~~\nfence\n~~~",
  "`x` and ``y`` and ```z```",
  "---",
  "***",
  "___",
  "Title\n===",
  "Title\n---",
  "- item\n+ item\n* item",
  "1. one\n2) two",
  "    indented code\n\tand a tab",
  "&lt;script&gt; &#64;octocat &amp; &#x3C;",
  "**bold** _em_ ~~strike~~ \\*not\\*",
  "$x^2$ and $$\\int$$",
  "- [ ] task",
  "snake_case_id and _lead and trail_ and __init__",
  "trailing backslash \\",
  "escaped \\[x](1) and \\\\[y](2)",
  "title\r\nline\rline\u2028line",
  "",
];

/** What CommonMark renders from an escaped text with no markup: backslash escapes and our entities undone. */
function rendered(markdown: string): string {
  return markdown.replace(/&lt;|&gt;|&amp;|&#8203;|\\([!-/:-@[-`{-~])/g, (m, ch: string | undefined) =>
    ch !== undefined ? ch : ({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&#8203;": "" } as const)[m as "&lt;"],
  );
}

/** Occurrences of `ch` that are not backslash-escaped (an even run of backslashes before it). */
function live(markdown: string, ch: string): number {
  let n = 0;
  for (let i = markdown.indexOf(ch); i >= 0; i = markdown.indexOf(ch, i + 1)) {
    let slashes = 0;
    while (markdown[i - 1 - slashes] === "\\") slashes++;
    if (slashes % 2 === 0) n++;
  }
  return n;
}

function expectNoInlineMarkup(out: string): void {
  expect(out).not.toMatch(/[<>]/); // no HTML, autolink or quote marker
  expect(out).not.toMatch(/@[\w-]/); // no mention, no e-mail autolink
  for (const ch of ["`", "[", "]", "*", "|", "~", "$"]) expect(live(out, ch), `${ch} in ${out}`).toBe(0);
  // An underscore inside a word opens no emphasis; any other is escaped.
  expect(out.replace(/(?<=[\p{L}\p{N}])_(?=[\p{L}\p{N}])/gu, "")).not.toMatch(/(?<!\\)_/);
  expect(out).not.toMatch(/[^\\]:\/\/|www\./i); // no bare-URL autolink
  expect(out).not.toMatch(/&(?!lt;|gt;|amp;|#8203;)/); // no entity of the model's own
}

describe("escapeMarkdown (one line)", () => {
  it.each(CORPUS)("leaves no markup and renders as the text itself: %j", (text) => {
    const out = escapeMarkdown(text);
    expect(out).not.toContain("\n");
    expectNoInlineMarkup(out);
    expect(rendered(out)).toBe(text.replace(/\s+/g, " ").trim());
  });

  it("keeps plain prose readable", () => {
    expect(escapeMarkdown("Off-by-one drops the last element (sum.ts:3).")).toBe(
      "Off-by-one drops the last element (sum.ts:3).",
    );
    expect(escapeMarkdown("ask @octocat")).toBe("ask @&#8203;octocat");
    expect(escapeMarkdown("a \\| b")).toBe("a \\\\\\| b");
  });
});

describe("escapeMarkdownBlock (paragraphs)", () => {
  it.each(CORPUS)("no line can start a block and the text renders as given: %j", (text) => {
    const out = escapeMarkdownBlock(text);
    expectNoInlineMarkup(out);
    for (const line of out.split("\n")) {
      expect(line, line).not.toMatch(/^\s/); // no indented code
      // (`&gt;` may start a line: CommonMark never reads an entity as a block's marker.)
      expect(line, line).not.toMatch(/^(#|[-+=]|\d+[.)]|>|\||`|~)/);
    }
    expect(out).not.toMatch(/\n\n\n/);
    const lines = (s: string) =>
      s
        .split("\n")
        .map((l) => l.replace(/\s+/g, " ").trim())
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
    expect(rendered(out)).toBe(lines(text.replace(/\r\n?|\u2028/g, "\n")));
  });

  it("keeps a model's paragraphs", () => {
    expect(escapeMarkdownBlock("First line.\nSecond line.\n\n\n## Not a heading")).toBe(
      "First line.\nSecond line.\n\n\\## Not a heading",
    );
  });
});

describe("markdownCode", () => {
  it.each(["sum.ts:3", "a`b.ts", "``x``.ts", "`start", "end`", "src/@octocat/![x](y).ts"])(
    "fences %j with more backticks than any run inside",
    (text) => {
      const out = markdownCode(text);
      const fence = /^`+/.exec(out)![0];
      expect(out.endsWith(fence)).toBe(true);
      const inner = out.slice(fence.length, -fence.length);
      for (const run of inner.match(/`+/g) ?? []) expect(run.length).not.toBe(fence.length);
      expect(inner.replace(/^ (.*) $/, "$1")).toBe(text);
    },
  );

  it("escapes a value with a pipe as plain text (a table splits a code span at a pipe)", () => {
    expect(markdownCode("a|b`.ts")).toBe("a\\|b\\`.ts");
    expect(markdownCode("sum.ts:3")).toBe("`sum.ts:3`");
  });
});

describe("markdownFence (an excerpt of a file under review)", () => {
  /** The fence's lines as CommonMark reads them: a bare CR ends a line too. */
  const linesOf = (out: string) => out.split(/\r\n?|\n/);

  it.each(CORPUS)("no line inside can close the fence, and each line reads as given: %j", (text) => {
    const lines = text.split("\n");
    const out = markdownFence(lines, "diff");
    const all = linesOf(out);
    const fence = /^`{3,}/.exec(all[0]!)![0];
    expect(all.at(-1)).toBe(fence);
    const inner = all.slice(1, -1);
    // A closing fence is a run of at least the fence's length, indented by up to three spaces.
    for (const line of inner) expect(line, line).not.toMatch(new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`));
    expect(inner).toEqual(lines.map((l) => l.replace(/\r\n?/g, "␍")));
  });

  it("fences past the longest backtick run and keeps a safe info string", () => {
    expect(markdownFence(["a ``` b", "`````"], "diff")).toBe("``````diff\na ``` b\n`````\n``````");
    expect(markdownFence(["x"], "ts onload=<x>")).toBe("```tsonloadx\nx\n```");
    expect(markdownFence(["a\rb"])).toBe("```\na␍b\n```");
  });
});

describe("escapeTerminal", () => {
  it.each([
    "\u001b]0;pwned\u0007\u001b[2J",
    "\u009b31mred",
    "over\rwrite",
    "\u0000nul \u007fdel \u0008bs",
    "\u202eevil\u2066",
  ])("leaves no control character in %j", (text) => {
    const out = escapeTerminal(text);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it("shows each as a visible escape and keeps newlines and tabs", () => {
    expect(escapeTerminal("\u001b]0;pwned\u0007\u001b[2J")).toBe("\\x1b]0;pwned\\x07\\x1b[2J");
    expect(escapeTerminal("a\r\n\tb\u202e")).toBe("a\n\tb\\u202e");
  });
});

describe("sarifArtifactUri", () => {
  const changed = new Set(["sum.ts", "src/a b.ts", "etc/passwd"]);
  it.each([
    "../../../../etc/passwd",
    "/etc/passwd",
    "/etc/shadow",
    "file:///etc/hostname",
    "https://host/sum.ts",
    "C:\\sum.ts",
    "src\\..\\sum.ts",
    "src/../sum.ts",
    "./../sum.ts",
    "sum.ts/",
    "other.ts",
    "",
  ])("gives no location for %j", (file) => {
    expect(sarifArtifactUri(file, changed)).toBeUndefined();
  });

  it("gives a changed file's repository-relative path, percent-encoded", () => {
    expect(sarifArtifactUri("sum.ts", changed)).toBe("sum.ts");
    expect(sarifArtifactUri("./sum.ts", changed)).toBe("sum.ts");
    expect(sarifArtifactUri("src/a b.ts", changed)).toBe("src/a%20b.ts");
  });
});

describe("escapeSarifText", () => {
  it.each(CORPUS)("leaves no embedded link (no unescaped bracket): %j", (text) => {
    const out = escapeSarifText(text);
    expect(live(out, "[")).toBe(0);
    expect(live(out, "]")).toBe(0);
  });

  it("escapes brackets and a backslash before one", () => {
    expect(escapeSarifText("see [here](https://host) or [0](1)")).toBe(
      "see \\[here\\](https://host) or \\[0\\](1)",
    );
    expect(escapeSarifText("a \\[b] c\\d")).toBe("a \\\\\\[b\\] c\\d");
    expect(escapeSarifText("\\\\[")).toBe("\\\\\\\\\\[");
  });
});

describe("escapeHtml", () => {
  it.each(CORPUS)("leaves no tag or attribute break: %j", (text) => {
    expect(escapeHtml(text)).not.toMatch(/[<>"']/);
  });
});
