import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { formats, registerFormat } from "@debatekit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../main.js";

// Help and checks of `debate new` and `debate tournament new` name the formats as registered: a
// format registered besides the built-ins (as the config file's `formats` does) shows up in them.

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "registry-help-"));
  // Crossfire's behaviour under another name and another length flag: two debaters, a panel, a tournament.
  const crossfire = formats.crossfire!;
  const made = registerFormat({
    ...crossfire,
    name: "duel",
    newOptions: {
      ...crossfire.newOptions,
      length: { ...crossfire.newOptions.length, flag: "bouts", max: 3 },
    },
  });
  expect(made.ok).toBe(true);
  // Formal's behaviour without a judge panel, and not offered to tournaments.
  const formal = formats.formal!;
  const solo = {
    ...formal,
    name: "solo",
    newOptions: { ...formal.newOptions, panel: false },
    tournament: undefined,
  };
  expect(registerFormat(solo).ok).toBe(true);
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function debate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const code = await main(["node", "debate", ...args], {
    stdout: sink(out),
    stderr: sink(err),
    env,
    cwd: home,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("debate new", () => {
  it("offers a registered format and lists it among those its panel flags apply to", async () => {
    const { stdout } = await debate("new", "--help");
    expect(stdout).toContain('(choices: "formal", "crossfire", "review", "duel", "solo", default: "formal")');
    expect(stdout).toContain("--bouts <n>");
    expect(stdout).toMatch(/--judges <adapters> +formal, crossfire, review, duel: a judge panel/);
    expect(stdout).toMatch(
      /--swap +formal, crossfire, duel: ask every judge twice, once per order of the sides \(not review\)/,
    );
    expect(stdout).toMatch(/--allow-self-judging +formal, crossfire, duel: let a judge/);
  });

  it("names every panel format when a format without a panel is given a panel flag", async () => {
    const { code, stderr } = await debate("new", "--format", "solo", "m", "--judges", "manual");
    expect([code, stderr]).toEqual([
      1,
      "debate: --judges, --swap and --allow-self-judging are options of the formal, crossfire, review and duel formats, not solo\n",
    ]);
  });

  it("still refuses one judge and a panel together", async () => {
    const { code, stderr } = await debate(
      "new",
      "--format",
      "crossfire",
      "m",
      "--proposer",
      "manual",
      "--challenger",
      "manual",
      "--judges",
      "manual",
      "--judge",
      "manual",
    );
    expect([code, stderr]).toEqual([1, "debate: give --judge (one judge) or --judges (a panel), not both\n"]);
  });
});

describe("debate tournament new", () => {
  it("offers every format that pairs two sides, with one option per length flag", async () => {
    // Help wraps at the terminal's width: compared as one line.
    const help = (await debate("tournament", "new", "--help")).stdout.replace(/\s+/g, " ");
    expect(help).toContain('(choices: "formal", "crossfire", "duel", default: "formal")');
    expect(help).toContain(
      "--rounds <n> crossfire: rounds per debate (1-5) --bouts <n> duel: rounds per debate (1-3) --replay",
    );
  });

  it("refuses another format's length flag, and a length out of the format's range, by the format's own numbers", async () => {
    const common = ["tournament", "new", join(home, "t"), "--motions", "nowhere.txt", "--seats", "a,b"];
    expect((await debate(...common, "--format", "duel", "--rounds", "2")).stderr).toBe(
      "debate: --rounds is for --format crossfire; the duel format takes --bouts\n",
    );
    expect((await debate(...common, "--format", "duel", "--bouts", "4")).stderr).toBe(
      "debate: --bouts must be from 1 to 3, got 4\n",
    );
  });
});
