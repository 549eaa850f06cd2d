import { mkdir } from "node:fs/promises";
import path from "node:path";
import { DebatekitError, type FormatRecord, formatOfState, formatRuleErrors, quote } from "@debatekit/core";
import type { DebateFrontmatter } from "@debatekit/schema";
import { writeFileAtomic } from "./atomic.js";
import { serializeRecord } from "./commit.js";
import { schemaErrors, serializeDebateFile, validateDebateData } from "./documents.js";
import { SLUG } from "./paths.js";
import { recordKindOf } from "./read.js";
import { frontmatterSeatSecretErrors } from "./secrets.js";

/** Creates `<parentDir>/<slug>/` with debate.md (YAML frontmatter, `# Motion` body) and the format's folders (formal: arguments/); never overwrites. */
export async function createDebateFolder(
  parentDir: string,
  init: {
    slug: string;
    motion: string;
    frontmatter: DebateFrontmatter;
    /** Markdown appended to the body after the motion (e.g. an imported transcript); never a `# Motion` heading. */
    notes?: string;
    /** The format's record files the debate starts with (review: artifact/v1.md), checked like a step's. */
    records?: FormatRecord[];
  },
): Promise<string> {
  if (!SLUG.test(init.slug)) {
    throw new DebatekitError(
      "SLUG_INVALID",
      `the slug ${quote(init.slug)} is not allowed: expected lowercase letters, digits, '-' and '_', starting with a letter or digit, at most 100 characters (e.g. "halt-ai-development")`,
      { field: "slug" },
    );
  }
  if (init.frontmatter.debate_id !== init.slug) {
    throw new DebatekitError(
      "SLUG_MISMATCH",
      `debate.md: \`debate_id\` must equal the folder's slug ${quote(init.slug)}, got ${quote(init.frontmatter.debate_id)}`,
      { file: "debate.md", field: "debate_id" },
    );
  }
  const checked = validateDebateData(init.frontmatter);
  if (!checked.ok) {
    const errors = schemaErrors("debate.md", "DEBATE_FIELD_INVALID", checked.errors);
    throw new DebatekitError("DEBATE_FIELD_INVALID", formatRuleErrors(errors).join("\n"), {
      file: "debate.md",
      field: errors[0]!.path.slice("debate.md:".length),
    });
  }
  // Refused here, not when the debate is first read: by then debate.md would hold the key.
  const secrets = frontmatterSeatSecretErrors(checked.value, "debate.md");
  if (secrets.length > 0) {
    throw new DebatekitError("SEAT_LITERAL_SECRET", secrets[0]!.message, {
      file: "debate.md",
      field: secrets[0]!.path.slice("debate.md:".length),
    });
  }
  const motion = init.motion.trim();
  if (motion === "" || /^#/m.test(motion)) {
    throw new DebatekitError(
      "MOTION_INVALID",
      `the motion must be non-empty text without markdown headings, got ${quote(init.motion)}`,
      { field: "motion" },
    );
  }
  if (init.notes !== undefined && /^#[ \t]+motion[ \t#]*$/im.test(init.notes)) {
    throw new DebatekitError(
      "NOTES_INVALID",
      "the notes of a new debate must not hold a `# Motion` heading",
      {
        field: "notes",
      },
    );
  }
  const format = formatOfState({ frontmatter: checked.value });
  for (const record of init.records ?? []) {
    const kind = recordKindOf(format, record.file);
    if (!kind || !format.isRecordCommitted(checked.value, record.file)) {
      throw new DebatekitError(
        "RECORD_UNKNOWN",
        `refusing to write ${quote(record.file)}: the ${format.name} format names no such record file at the start`,
        { file: record.file, field: "(file)" },
      );
    }
    const valid = kind.validate(record.frontmatter);
    if (!valid.ok) {
      const errors = schemaErrors(record.file, "RECORD_FIELD_INVALID", valid.errors);
      throw new DebatekitError("RECORD_FIELD_INVALID", formatRuleErrors(errors).join("\n"), {
        file: record.file,
        field: errors[0]!.path.slice(record.file.length + 1),
      });
    }
  }
  await mkdir(parentDir, { recursive: true });
  const dir = path.join(parentDir, init.slug);
  try {
    // Non-recursive mkdir fails when the folder exists: an existing debate is never overwritten.
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new DebatekitError(
        "FOLDER_EXISTS",
        `${quote(dir)} already exists; choose another slug or remove it`,
        {
          file: dir,
          cause: error,
        },
      );
    }
    throw error;
  }
  for (const folder of format.folders) await mkdir(path.join(dir, folder));
  // Records first, debate.md last: a folder without debate.md is no debate.
  for (const record of init.records ?? [])
    await writeFileAtomic(path.join(dir, record.file), serializeRecord(record));
  const text = serializeDebateFile({
    frontmatter: checked.value,
    body: `\n# Motion\n\n${motion}\n${init.notes ? `\n${init.notes.trimEnd()}\n` : ""}`,
    style: "yaml",
  });
  await writeFileAtomic(path.join(dir, "debate.md"), text);
  return dir;
}
