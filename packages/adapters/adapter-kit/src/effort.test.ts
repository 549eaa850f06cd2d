import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateEffortMap } from "@debatekit/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EffortMapError,
  findEffortOverrides,
  loadEffortMap,
  mergeEffortMaps,
  readEffortFile,
  resolveEffort,
  shippedEffortFile,
} from "./effort.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "effort-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function thrown(fn: () => unknown): EffortMapError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(EffortMapError);
    return error as EffortMapError;
  }
  throw new Error("expected an EffortMapError");
}

describe("shipped effort.json", () => {
  it("is valid against the schema and covers every CLI adapter at every level it lists", () => {
    const map = readEffortFile(shippedEffortFile);
    expect(validateEffortMap(map).ok).toBe(true);
    for (const name of ["claude", "codex", "gemini", "opencode", "copilot", "http", "acp"]) {
      expect(map.adapters[name], name).toBeDefined();
    }
    for (const name of ["claude", "codex", "gemini", "opencode", "copilot"]) {
      const levels = map.adapters[name]!.levels!;
      expect(Object.keys(levels).sort(), name).toEqual(["high", "low", "max", "medium"]);
      for (const level of Object.values(levels)) expect(level.model, name).toMatch(/\S/);
    }
  });

  it("maps codex effort to model_reasoning_effort", () => {
    const r = resolveEffort(loadEffortMap(), "codex", { effort: "high" });
    expect(r).toEqual({
      effort: "high",
      model: "gpt-5.5",
      args: ["-c", "model_reasoning_effort=high"],
      env: {},
    });
  });
});

describe("resolveEffort", () => {
  const map = {
    adapters: {
      claude: {
        default_effort: "high" as const,
        levels: { high: { model: "opus", env: { A: "1" } }, low: { model: "haiku", args: ["--x"] } },
      },
    },
  };

  it("uses the adapter's default effort when the seat names none", () => {
    expect(resolveEffort(map, "claude", {})).toEqual({
      effort: "high",
      model: "opus",
      args: [],
      env: { A: "1" },
    });
  });

  it("lets the seat's model win over the map's, keeping the level's flags", () => {
    expect(resolveEffort(map, "claude", { model: "sonnet", effort: "low" })).toEqual({
      effort: "low",
      model: "sonnet",
      args: ["--x"],
      env: {},
    });
  });

  it("adds nothing for an unknown adapter or level, and falls back to medium", () => {
    expect(resolveEffort(map, "nope", {})).toEqual({ effort: "medium", args: [], env: {} });
    expect(resolveEffort(map, "claude", { effort: "max" })).toEqual({ effort: "max", args: [], env: {} });
  });

  it("returns copies: changing the result leaves the map alone", () => {
    const r = resolveEffort(map, "claude", { effort: "low" });
    r.args.push("--y");
    expect(map.adapters.claude.levels.low.args).toEqual(["--x"]);
  });
});

describe("mergeEffortMaps", () => {
  it("merges key by key: a model override keeps args; env merges per variable; args replace", () => {
    const base = {
      adapters: {
        codex: {
          default_effort: "medium" as const,
          levels: { high: { model: "a", args: ["-c", "x=1"], env: { K: "1", L: "2" } }, low: { model: "b" } },
        },
        gemini: { levels: { low: { model: "g" } } },
      },
    };
    const over = {
      adapters: {
        codex: { levels: { high: { model: "z", env: { L: "9" } } } },
        http: { default_effort: "low" as const },
      },
    };
    expect(mergeEffortMaps(base, over)).toEqual({
      adapters: {
        codex: {
          default_effort: "medium",
          levels: { high: { model: "z", args: ["-c", "x=1"], env: { K: "1", L: "9" } }, low: { model: "b" } },
        },
        gemini: { levels: { low: { model: "g" } } },
        http: { default_effort: "low", levels: {} },
      },
    });
    const replaced = mergeEffortMaps(base, { adapters: { codex: { levels: { high: { args: [] } } } } });
    expect(replaced.adapters.codex!.levels!.high!.args).toEqual([]);
  });
});

describe("loadEffortMap with overrides", () => {
  it("applies override files in order, later winning", async () => {
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    await writeFile(a, JSON.stringify({ adapters: { codex: { levels: { high: { model: "from-a" } } } } }));
    await writeFile(b, JSON.stringify({ adapters: { codex: { levels: { high: { model: "from-b" } } } } }));
    const map = loadEffortMap([a, b]);
    expect(resolveEffort(map, "codex", { effort: "high" }).model).toBe("from-b");
    expect(resolveEffort(map, "codex", { effort: "high" }).args).toEqual([
      "-c",
      "model_reasoning_effort=high",
    ]);
    expect(resolveEffort(loadEffortMap(a), "codex", { effort: "high" }).model).toBe("from-a");
  });

  it("rejects an invalid override naming the file and the field", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ adapters: { codex: { levels: { extreme: { model: "x" } } } } }));
    const error = thrown(() => loadEffortMap(bad));
    expect(error.code).toBe("EFFORT_FILE_INVALID");
    expect(error.file).toBe(bad);
    expect(error.field).toBe("adapters.codex.levels.extreme");
    expect(error.message).toContain(bad);
    expect(error.message).toContain("adapters.codex.levels.extreme");
  });

  it("rejects a wrongly typed field", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ adapters: { codex: { levels: { low: { args: "-c x" } } } } }));
    const error = thrown(() => loadEffortMap(bad));
    expect(error.field).toBe("adapters.codex.levels.low.args");
    expect(error.message).toMatch(/must be array/);
  });

  it("rejects a file that is not JSON, quoting the content", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, "adapters:\n  codex: {}\n");
    const error = thrown(() => loadEffortMap(bad));
    expect(error.code).toBe("EFFORT_FILE_NOT_JSON");
    expect(error.message).toContain("adapters:");
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("reports a missing file with its path", () => {
    const error = thrown(() => loadEffortMap(join(dir, "missing.json")));
    expect(error.code).toBe("EFFORT_FILE_UNREADABLE");
    expect(error.message).toContain("missing.json");
    expect(error.message).toContain("ENOENT");
  });
});

describe("findEffortOverrides", () => {
  it("lists the env file first, then the debate folder's effort.json when it exists", async () => {
    expect(findEffortOverrides({ debateDir: dir, env: {} })).toEqual([]);
    await writeFile(join(dir, "effort.json"), "{}");
    expect(findEffortOverrides({ debateDir: dir, env: { DEBATEKIT_EFFORT_FILE: "/etc/e.json" } })).toEqual([
      "/etc/e.json",
      join(dir, "effort.json"),
    ]);
  });
});

describe("an effort.json that is not a regular file", () => {
  it("a FIFO in the debate folder is refused at once, naming it (a plain read would hang every seat)", () => {
    execFileSync("mkfifo", [join(dir, "effort.json")]);
    const error = thrown(() => loadEffortMap(findEffortOverrides({ debateDir: dir, env: {} })));
    expect(error.code).toBe("EFFORT_FILE_UNREADABLE");
    expect(error.file).toBe(join(dir, "effort.json"));
    expect(error.message).toMatch(
      /expected a regular file of at most 1048576 bytes, found a named pipe \(FIFO\)$/,
    );
  });

  it("a directory is refused, naming it", async () => {
    await mkdir(join(dir, "effort.json"));
    const error = thrown(() => readEffortFile(join(dir, "effort.json")));
    expect(error.message).toMatch(/found a directory$/);
  });
});
