import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commands } from "./commands/index.js";
import { createProgram } from "./main.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describe("the debate binary", () => {
  it("prints help when called without arguments", () => {
    const out = execFileSync(process.execPath, [bin], { encoding: "utf8" });
    expect(out).toMatch(/^Usage: debate/);
  });

  it("fails with exit 1 and a one-line cause on an unknown command", () => {
    const result = spawnSync(process.execPath, [bin, "frobnicate"], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: (unknown command 'frobnicate'|too many arguments)/);
  });
});

describe("createProgram", () => {
  it("declares only the named command's file (allow.ts declares allow and deny), every file for no name or an unknown one", async () => {
    const names = async (only?: string) =>
      (await createProgram(undefined, only === undefined ? {} : { only })).commands.map((c) => c.name());
    expect(await names("deny")).toEqual(["allow", "deny"]);
    expect(await names("status")).toEqual(["status"]);
    expect(await names("frobnicate")).toEqual(commands.flatMap((c) => c.names));
    expect(await names()).toEqual(commands.flatMap((c) => c.names));
  });
});
