import { readdir } from "node:fs/promises";
import path from "node:path";
import { type AnyFormat, defineFormat, formalFormat, registerFormat } from "@debatekit/core";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readDebateFolder } from "./read.js";
import { resetDebateFolder } from "./reset.js";
import { makeTempDir, sampleState, writeStateFolder } from "./test-helpers/folder.js";

/** formal's rules under another name (registered as an outside format would be), with these changes. */
function outside(name: string, changes: Partial<AnyFormat>): AnyFormat {
  return defineFormat({
    ...formalFormat,
    name,
    validateFrontmatter(data: unknown) {
      const checked = formalFormat.validateFrontmatter({ ...(data as object), format: "formal" });
      return checked.ok ? { ok: true, value: { ...checked.value, format: name as never } } : checked;
    },
    ...changes,
  });
}

beforeAll(() => {
  expect(registerFormat(outside("relay", { unit: { one: "leg", many: "legs" } })).ok).toBe(true);
  const frozen = { supported: false as const, reason: "its clock only runs forward" };
  expect(registerFormat(outside("frozen", { reset: frozen })).ok).toBe(true);
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("debatekit-reset-"));
});
afterEach(() => cleanup());

/** The sample state (exchange 1 awaiting judgment, openings scored) written as a debate of `format`. */
async function folderOf(format: string): Promise<string> {
  const state = sampleState();
  const folder = path.join(dir, format);
  await writeStateFolder(folder, {
    ...state,
    frontmatter: { ...state.frontmatter, format: format as never },
  });
  return folder;
}

describe("resetDebateFolder applies the format's own reset", () => {
  it("plans with the format, and speaks in its unit", async () => {
    const folder = await folderOf("relay");
    await expect(resetDebateFolder(folder, { to: 2 })).rejects.toThrow(
      "--to 2: expected a leg from 0 to 1 (the debate is at leg 1)",
    );
    const result = await resetDebateFolder(folder, { to: 1, keep: false });
    expect(result).toMatchObject({
      exchange: 1,
      unit: "leg",
      removed: ["arguments/opp_001.md", "arguments/prop_001.md"],
    });
    const read = await readDebateFolder(folder);
    expect(read.ok && read.value.state.frontmatter).toMatchObject({
      format: "relay",
      current_exchange: 1,
      current_phase: "awaiting_arguments",
    });
    expect(await readdir(path.join(folder, "arguments"))).toHaveLength(6);
  });

  it("refuses a format that cannot be reset with the format's reason, and changes nothing", async () => {
    const folder = await folderOf("frozen");
    const before = await readdir(folder, { recursive: true });
    await expect(resetDebateFolder(folder)).rejects.toMatchObject({
      code: "RESET_UNSUPPORTED",
      message: "a frozen debate cannot be reset (its clock only runs forward); start a new one",
    });
    expect(await readdir(folder, { recursive: true })).toEqual(before);
  });
});
