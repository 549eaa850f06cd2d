import { relative, resolve } from "node:path";
import { createDebateFolder } from "@debatekit/files";
import type { DebateFrontmatter, SeatConfig } from "@debatekit/schema";
import { type Command, Option } from "commander";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";

/** A slug from a motion: "This house would halt AI development" -> "halt-ai-development". */
export function slugFromMotion(motion: string): string {
  const words = motion
    .toLowerCase()
    .replace(/^\s*this house (would|believes that|believes)\s+/, "")
    .normalize("NFKD")
    .replace(/[^a-z0-9\s-]/g, " ")
    .split(/[\s-]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 60) break;
    slug = next;
  }
  return slug || "debate";
}

type SeatName = SeatConfig["adapter"];

/** `debate new "<motion>"`: creates a debate folder ready to run. */
export function registerNew(program: Command, io: CliIO): void {
  program
    .command("new")
    .description("create a debate folder for a motion")
    .argument("<motion>", 'the motion, e.g. "This house would require a second review of AI-written code"')
    .option("--slug <slug>", "folder name and debate_id (default: from the motion)")
    .option("--proposition <adapter>", "who argues for the motion", "claude")
    .option("--opposition <adapter>", "who argues against it", "gemini")
    .option("--judge <adapter>", "who scores every argument", "codex")
    .option("--exchanges <n>", "how many exchanges, the opening included", parsePositiveInt, 5)
    .option("--dir <parent>", "where the folder is created", "debates")
    .addOption(
      new Option(
        "--isolation <mode>",
        "off: every seat loads your own CLI setup (memory files, hooks, plugins, MCP servers); tools stay off",
      )
        .choices(["on", "off"])
        .default("on"),
    )
    .option("--json", "print {dir, debate_id} as JSON")
    .action(
      async (
        motion: string,
        opts: {
          slug?: string;
          proposition: string;
          opposition: string;
          judge: string;
          exchanges: number;
          dir: string;
          isolation: "on" | "off";
          json?: boolean;
        },
      ) => {
        const slug = opts.slug ?? slugFromMotion(motion);
        // `isolation: on` is the default and not written; `off` is the user's explicit opt-in, per seat.
        const seat = (adapter: string): SeatConfig => ({
          adapter: adapter as SeatName,
          ...(opts.isolation === "off" ? { isolation: "off" as const } : {}),
        });
        const frontmatter: DebateFrontmatter = {
          debate_id: slug,
          format: "formal",
          exchanges: opts.exchanges,
          current_exchange: 0,
          current_phase: "awaiting_arguments",
          seats: {
            // Checked against the seat schema by createDebateFolder, which names the bad field.
            proposition: seat(opts.proposition),
            opposition: seat(opts.opposition),
            judge: seat(opts.judge),
          },
          created_at: new Date().toISOString(),
          cumulative_scores: { proposition: { total: 0, count: 0 }, opposition: { total: 0, count: 0 } },
        };
        const dir = await createDebateFolder(resolve(io.cwd, opts.dir), { slug, motion, frontmatter });
        const shown = relative(io.cwd, dir) || ".";
        if (opts.json) {
          io.stdout.write(`${JSON.stringify({ dir, debate_id: slug })}\n`);
          return;
        }
        io.stdout.write(`created ${shown}/debate.md\nnext: debate run ${shown}\n`);
      },
    );
}
