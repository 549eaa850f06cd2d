import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDebateFolder } from "./create.js";
import { readDebateFolder } from "./read.js";
import { hashFolder, makeTempDir, sampleFrontmatter } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

describe("createDebateFolder", () => {
  it("writes debate.md with YAML frontmatter and the motion, and the folder reads back", async () => {
    const created = await createDebateFolder(dir, {
      slug: "sample",
      motion: "This house would test everything.",
      frontmatter: sampleFrontmatter(),
    });
    expect(created).toBe(path.join(dir, "sample"));
    expect(await readFile(path.join(created, "debate.md"), "utf8")).toBe(
      [
        "---",
        "debate_id: sample",
        "format: formal",
        "exchanges: 3",
        "current_exchange: 0",
        "current_phase: awaiting_arguments",
        "seats:",
        "  proposition:",
        "    adapter: replay",
        "  opposition:",
        "    adapter: replay",
        "  judge:",
        "    adapter: replay",
        "cumulative_scores:",
        "  proposition:",
        "    total: 0",
        "    count: 0",
        "  opposition:",
        "    total: 0",
        "    count: 0",
        "---",
        "",
        "# Motion",
        "",
        "This house would test everything.",
        "",
      ].join("\n"),
    );
    const read = await readDebateFolder(created);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.value.state.motion).toEqual({ text: "This house would test everything." });
    expect(read.value.state.arguments).toEqual([]);
  });

  it("refuses to overwrite an existing folder", async () => {
    const init = { slug: "sample", motion: "M.", frontmatter: sampleFrontmatter() };
    const created = await createDebateFolder(dir, init);
    await writeFile(path.join(created, "notes.md"), "mine");
    const before = await hashFolder(dir);
    await expect(createDebateFolder(dir, init)).rejects.toMatchObject({ code: "FOLDER_EXISTS" });
    expect(await hashFolder(dir)).toEqual(before);
  });

  it.each(["../escape", "a/b", "/abs", "Upper", "", "-dash", "x\0y", ".hidden", "a".repeat(101)])(
    "refuses the slug %j without touching the disk",
    async (slug) => {
      const before = await hashFolder(dir);
      await expect(
        createDebateFolder(dir, {
          slug,
          motion: "M.",
          frontmatter: sampleFrontmatter({ debate_id: "sample" }),
        }),
      ).rejects.toMatchObject({ code: "SLUG_INVALID", field: "slug" });
      expect(await hashFolder(dir)).toEqual(before);
    },
  );

  it("refuses a debate_id that differs from the slug, an invalid frontmatter, and a motion with headings", async () => {
    await expect(
      createDebateFolder(dir, { slug: "other", motion: "M.", frontmatter: sampleFrontmatter() }),
    ).rejects.toMatchObject({ code: "SLUG_MISMATCH", file: "debate.md", field: "debate_id" });
    await expect(
      createDebateFolder(dir, {
        slug: "sample",
        motion: "M.",
        frontmatter: sampleFrontmatter({ exchanges: 0 }),
      }),
    ).rejects.toMatchObject({ code: "DEBATE_FIELD_INVALID", file: "debate.md", field: "exchanges" });
    await expect(
      createDebateFolder(dir, {
        slug: "sample",
        motion: "M.\n\n## Scope\n\nx",
        frontmatter: sampleFrontmatter(),
      }),
    ).rejects.toMatchObject({ code: "MOTION_INVALID" });
    expect(await hashFolder(dir)).toEqual({});
  });

  it("refuses a literal secret in a seat before anything is written (debate.md would keep it)", async () => {
    const key = "sk-ant-api03-Zq8xK2mP9vL4nR7tW1yB6cD3fG5hJ0aB";
    const fm = sampleFrontmatter();
    const seats = { ...fm.seats, proposition: { ...fm.seats!.proposition, env: { OPENAI_API_KEY: key } } };
    const refused = createDebateFolder(dir, {
      slug: "sample",
      motion: "M.",
      frontmatter: { ...fm, seats } as typeof fm,
    });
    await expect(refused).rejects.toMatchObject({
      code: "SEAT_LITERAL_SECRET",
      file: "debate.md",
      field: "seats.proposition.env.OPENAI_API_KEY",
    });
    await expect(refused).rejects.not.toThrow(key.slice(13));
    expect(await hashFolder(dir)).toEqual({});
  });
});
