import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDebateFolder } from "./read.js";
import { hashFolder, makeTempDir, sampleState, writeStateFolder } from "./test-helpers/folder.js";
import { MAX_MARKDOWN_BYTES } from "./text-file.js";

// Every case starts from a valid folder (exchange 1 awaiting judgment, 8 arguments, 6 scores), breaks one
// thing, and expects the error to name that file and field, with the folder byte-identical after the read.

type Mutate = (dir: string, outside: string) => Promise<void>;
interface BadCase {
  name: string;
  style?: "yaml" | "json";
  mutate: Mutate;
  code: string;
  path: string;
  quotes?: string;
}

const DEBATE = "debate.md";
const PROP = "arguments/prop_001.md";

function edit(file: string, from: string | RegExp, to: string): Mutate {
  return async (dir) => {
    const full = path.join(dir, file);
    const text = await readFile(full, "utf8");
    const next = text.replace(from, to);
    if (next === text) throw new Error(`case setup: ${String(from)} not found in ${file}`);
    await writeFile(full, next);
  };
}
function replaceFile(file: string, content: string | Uint8Array): Mutate {
  return async (dir) => writeFile(path.join(dir, file), content);
}
// biome-ignore lint/suspicious/noExplicitAny: the cases reshape arbitrary JSON on purpose
function editJson(file: string, change: (data: Record<string, any>) => void): Mutate {
  return async (dir) => {
    const full = path.join(dir, file);
    const data = JSON.parse(await readFile(full, "utf8"));
    change(data);
    await writeFile(full, JSON.stringify(data, null, 2));
  };
}

const cases: BadCase[] = [
  // debate.md, YAML
  {
    name: "malformed YAML",
    mutate: edit(DEBATE, "current_phase: awaiting_judgment", "current_phase: [awaiting"),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "unclosed frontmatter",
    mutate: edit(DEBATE, /\n---\n/, "\n"),
    code: "FRONTMATTER_UNCLOSED",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "no frontmatter at all",
    mutate: replaceFile(DEBATE, "# Motion\n\nThis house would.\n"),
    code: "FRONTMATTER_MISSING",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "unknown phase",
    mutate: edit(DEBATE, "current_phase: awaiting_judgment", "current_phase: thinking"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:current_phase",
    quotes: '"thinking"',
  },
  {
    name: "negative exchange",
    mutate: edit(DEBATE, "current_exchange: 1", "current_exchange: -1"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:current_exchange",
  },
  {
    name: "exchange of the wrong type",
    mutate: edit(DEBATE, "current_exchange: 1", "current_exchange: one"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:current_exchange",
    quotes: '"one"',
  },
  {
    name: "missing debate_id",
    mutate: edit(DEBATE, "debate_id: sample\n", ""),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:debate_id",
  },
  {
    name: "unknown key",
    mutate: edit(DEBATE, "format: formal", "format: formal\ncolour: red"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:colour",
  },
  {
    name: "seat without adapter",
    mutate: edit(DEBATE, /proposition:\n {4}adapter: replay/, "proposition:\n    model: x"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:seats.proposition.adapter",
  },
  {
    name: "zero exchanges",
    mutate: edit(DEBATE, "exchanges: 3", "exchanges: 0"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:exchanges",
  },
  {
    name: "debate_id path trick",
    mutate: edit(DEBATE, "debate_id: sample", 'debate_id: "../../etc"'),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:debate_id",
    quotes: "../../etc",
  },
  {
    name: "unknown format",
    mutate: edit(DEBATE, "format: formal", "format: chess"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:format",
  },
  {
    name: "negative score count",
    mutate: edit(DEBATE, "count: 3", "count: -3"),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:cumulative_scores.proposition.count",
  },
  {
    name: "paused as a string",
    mutate: edit(DEBATE, "format: formal", 'format: formal\npaused: "yes"'),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:paused",
  },
  {
    name: "frontmatter is a list",
    mutate: replaceFile(DEBATE, "---\n- a\n- b\n---\n\n# Motion\n\nX\n"),
    code: "FRONTMATTER_NOT_OBJECT",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "duplicate YAML key",
    mutate: edit(DEBATE, "format: formal", "format: formal\nformat: formal"),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "a line that only starts like a delimiter",
    mutate: edit(DEBATE, "format: formal", "----\nformat: formal"),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "no # Motion heading",
    mutate: edit(DEBATE, "# Motion", "# Motive"),
    code: "MOTION_MISSING",
    path: "debate.md:(body)",
  },
  {
    name: "debate.md missing",
    mutate: async (dir) => rm(path.join(dir, DEBATE)),
    code: "DEBATE_FILE_MISSING",
    path: "debate.md:(file)",
  },
  {
    name: "huge debate.md",
    mutate: edit(DEBATE, "# Motion", `# Motion\n\n${"x".repeat(MAX_MARKDOWN_BYTES)}`),
    code: "FILE_TOO_LARGE",
    path: "debate.md:(file)",
  },
  {
    name: "NUL bytes in debate.md",
    mutate: edit(DEBATE, "# Motion", "# Mo\0tion"),
    code: "FILE_BINARY",
    path: "debate.md:(file)",
  },
  {
    name: "invalid UTF-8 in debate.md",
    mutate: async (dir) =>
      writeFile(
        path.join(dir, DEBATE),
        Buffer.concat([Buffer.from("---\ndebate_id: s"), Buffer.from([0xc3, 0x28]), Buffer.from("\n---\n")]),
      ),
    code: "FILE_NOT_UTF8",
    path: "debate.md:(file)",
  },
  {
    name: "debate.md is a folder",
    mutate: async (dir) => {
      await rm(path.join(dir, DEBATE));
      await mkdir(path.join(dir, DEBATE));
    },
    code: "FILE_NOT_REGULAR",
    path: "debate.md:(file)",
  },
  {
    name: "debate.md links outside the folder",
    mutate: async (dir, outside) => {
      await writeFile(path.join(outside, "evil.md"), "---\n---\n");
      await rm(path.join(dir, DEBATE));
      await symlink(path.join(outside, "evil.md"), path.join(dir, DEBATE));
    },
    code: "PATH_ESCAPE",
    path: "debate.md:(file)",
  },
  // debate.md, dialectic JSON
  {
    name: "malformed JSON frontmatter",
    style: "json",
    mutate: edit(DEBATE, '"current_exchange": 1,', '"current_exchange": 1,,'),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "unclosed JSON frontmatter",
    style: "json",
    mutate: edit(DEBATE, /\n}\n/, "\n"),
    code: "FRONTMATTER_UNCLOSED",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "JSON frontmatter with text after it",
    style: "json",
    mutate: edit(DEBATE, /\n}\n/, "\n} # Motion\n"),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
  },
  {
    name: "JSON wrong type",
    style: "json",
    mutate: edit(DEBATE, '"current_exchange": 1', '"current_exchange": "1"'),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:current_exchange",
  },
  // arguments
  {
    name: "argument id differs from its file name",
    mutate: edit(PROP, "id: prop_001", "id: prop_002"),
    code: "ARGUMENT_ID_MISMATCH",
    path: "arguments/prop_001.md:id",
    quotes: '"prop_002"',
  },
  {
    name: "argument side differs from its id",
    mutate: edit(PROP, "side: prop", "side: opp"),
    code: "ARGUMENT_ID_MISMATCH",
    path: "arguments/prop_001.md:side",
  },
  {
    name: "argument exchange differs from its id",
    mutate: edit(PROP, "exchange: 1", "exchange: 0"),
    code: "ARGUMENT_ID_MISMATCH",
    path: "arguments/prop_001.md:exchange",
  },
  {
    name: "argument id path trick",
    mutate: edit(PROP, "id: prop_001", 'id: "../../etc/passwd"'),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:id",
    quotes: "../../etc/passwd",
  },
  {
    name: "unknown attack type",
    mutate: edit(PROP, "type: claim_attack", "type: ad_hominem"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:attacks[0].type",
    quotes: "ad_hominem",
  },
  {
    name: "attack target path trick",
    mutate: edit(PROP, "target_id: opp_000a", 'target_id: "../opp_000a"'),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:attacks[0].target_id",
  },
  {
    name: "unknown defense type",
    mutate: edit("arguments/opp_001.md", "type: reinforce", "type: deny"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/opp_001.md:defends[0].type",
  },
  {
    name: "missing title",
    mutate: edit(PROP, /title: .*\n/, ""),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:title",
  },
  {
    name: "empty title",
    mutate: edit(PROP, /title: .*\n/, 'title: ""\n'),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:title",
  },
  {
    name: "claim of the wrong type",
    mutate: edit(PROP, /claim: .*\n/, "claim: 42\n"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:claim",
  },
  {
    name: "unknown argument key",
    mutate: edit(PROP, "side: prop", "side: prop\nmood: angry"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:mood",
  },
  {
    name: "four attacks",
    mutate: edit(
      PROP,
      /attacks:\n/,
      "attacks:\n  - {target_id: opp_000b, type: claim_attack}\n  - {target_id: opp_000b, type: claim_attack}\n  - {target_id: opp_000c, type: claim_attack}\n",
    ),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:attacks",
  },
  {
    name: "`---` inside the frontmatter's text closes it early",
    mutate: edit(PROP, "side: prop", "---\nside: prop"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:side",
  },
  {
    name: "argument frontmatter never closed",
    mutate: edit(PROP, /\n---\n/, "\n"),
    code: "FRONTMATTER_UNCLOSED",
    path: "arguments/prop_001.md:(frontmatter)",
  },
  {
    name: "binary argument",
    mutate: replaceFile(PROP, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0])),
    code: "FILE_BINARY",
    path: "arguments/prop_001.md:(file)",
  },
  {
    name: "huge argument",
    mutate: edit(PROP, "## Claim", `## Claim\n${"y".repeat(MAX_MARKDOWN_BYTES)}`),
    code: "FILE_TOO_LARGE",
    path: "arguments/prop_001.md:(file)",
  },
  {
    name: "argument in Latin-1",
    mutate: async (dir) =>
      writeFile(
        path.join(dir, PROP),
        Buffer.from(
          (await readFile(path.join(dir, PROP), "utf8")).replace("## Claim", "## Claim café"),
          "latin1",
        ),
      ),
    code: "FILE_NOT_UTF8",
    path: "arguments/prop_001.md:(file)",
  },
  {
    name: "malformed JSON argument",
    style: "json",
    mutate: edit(PROP, '"side": "prop",', '"side": prop,'),
    code: "FRONTMATTER_INVALID",
    path: "arguments/prop_001.md:(frontmatter)",
  },
  {
    name: "argument links outside the folder",
    mutate: async (dir, outside) => {
      await writeFile(path.join(outside, "x.md"), "---\nid: prop_001\n---\n");
      await rm(path.join(dir, PROP));
      await symlink(path.join(outside, "x.md"), path.join(dir, PROP));
    },
    code: "PATH_ESCAPE",
    path: "arguments/prop_001.md:(file)",
  },
  {
    name: "argument file is a folder",
    mutate: async (dir) => {
      await rm(path.join(dir, PROP));
      await mkdir(path.join(dir, PROP));
    },
    code: "FILE_NOT_REGULAR",
    path: "arguments/prop_001.md:(file)",
  },
  // scores.json
  {
    name: "scores.json not JSON",
    mutate: replaceFile("scores.json", "prop_000a: 0.3\n"),
    code: "SCORES_INVALID_JSON",
    path: "scores.json:(root)",
    quotes: "prop_000a: 0.3",
  },
  {
    name: "score for an unknown id",
    mutate: editJson("scores.json", (d) => {
      d.prop_007 = d.prop_000a;
    }),
    code: "SCORES_UNKNOWN_ID",
    path: "scores.json:prop_007",
  },
  {
    name: "score for an uncommitted argument",
    mutate: editJson("scores.json", (d) => {
      d.prop_002 = d.prop_000a;
    }),
    code: "SCORES_UNKNOWN_ID",
    path: "scores.json:prop_002",
  },
  {
    name: "score out of range",
    mutate: editJson("scores.json", (d) => {
      d.prop_000a.current_score = 1.5;
    }),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:prop_000a.current_score",
  },
  {
    name: "empty score history",
    mutate: editJson("scores.json", (d) => {
      d.prop_000a.history = [];
    }),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:prop_000a.history",
  },
  {
    name: "scored_at not a date",
    mutate: editJson("scores.json", (d) => {
      d.prop_000a.history[0].scored_at = "yesterday";
    }),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:prop_000a.history[0].scored_at",
  },
  {
    name: "score key path trick",
    mutate: editJson("scores.json", (d) => {
      d["../../x"] = d.prop_000a;
    }),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:../../x",
  },
  {
    name: "scores.json is an array",
    mutate: replaceFile("scores.json", "[]\n"),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:(root)",
  },
  {
    name: "unknown key in a score record",
    mutate: editJson("scores.json", (d) => {
      d.prop_000a.bonus = 1;
    }),
    code: "SCORES_FIELD_INVALID",
    path: "scores.json:prop_000a.bonus",
  },
  {
    name: "binary scores.json",
    mutate: replaceFile("scores.json", Buffer.from([0x7b, 0, 0x7d])),
    code: "FILE_BINARY",
    path: "scores.json:(file)",
  },
];

let outside: string;
let cleanupOutside: () => Promise<void>;
beforeAll(async () => {
  ({ dir: outside, cleanup: cleanupOutside } = await makeTempDir("debatekit-outside-"));
});
afterAll(() => cleanupOutside());

describe("a corpus of bad folders", () => {
  it("has at least 40 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s: precise error, folder unchanged",
    async (_name, bad) => {
      const { dir, cleanup } = await makeTempDir();
      try {
        await writeStateFolder(dir, sampleState(), bad.style ?? "yaml");
        expect((await readDebateFolder(dir)).ok).toBe(true);
        await bad.mutate(dir, outside);
        const before = await hashFolder(dir);
        const result = await readDebateFolder(dir);
        expect(await hashFolder(dir)).toEqual(before);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const error = result.errors.find((e) => e.path === bad.path);
        expect(error, JSON.stringify(result.errors, null, 2)).toBeDefined();
        expect(error!.code).toBe(bad.code);
        const file = bad.path.slice(0, bad.path.indexOf(":"));
        expect(error!.message.startsWith(`${file}: `)).toBe(true);
        // Bad content is quoted, cut to about 200 characters.
        expect(error!.message.length).toBeLessThan(700);
        if (bad.quotes) expect(error!.message).toContain(bad.quotes);
      } finally {
        await cleanup();
      }
    },
  );
});
