import { lstat, readFile } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import type { FormatRecord } from "@debatekit/core";
import type { ReviewArtifact, ReviewFrontmatter, SeatConfig } from "@debatekit/schema";
import { ExitError } from "../exit-error.js";
import { parseSeatSpec } from "../options.js";
import type { ScopeSnapshot } from "../review/scope.js";
import type { ActionContext, Created } from "./context.js";
import { slugFromMotion } from "./slug.js";

const MAX_ARTIFACT = 1_000_000;
const MAX_REPO_FILES = 20;
const PROSE = new Set([".md", ".markdown", ".txt", ""]);

/** The files a git scope touches, as artifact/v1.md carries them for evidence checks (core reads them back). */
async function repositorySection(snap: ScopeSnapshot): Promise<string> {
  const parts: string[] = [];
  for (const file of snap.files.slice(0, MAX_REPO_FILES)) {
    const text = await snap.readFile(file);
    if (text === undefined || text.length > MAX_ARTIFACT / 4 || text.includes("\n````")) continue;
    parts.push(
      `### File \`${file}\` at ${snap.revision}\n\`\`\`\`${extname(file).slice(1)}\n${text.replace(/\n$/, "")}\n\`\`\`\``,
    );
  }
  return parts.length > 0 ? `\n## Repository at ${snap.revision}\n\n${parts.join("\n\n")}\n` : "";
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** What `debate review` and `debate gate` take to snapshot an artifact into a new review folder. */
export interface ReviewInput {
  path?: string | undefined;
  scope?: string | undefined;
  text?: string | undefined;
  target?: string | undefined;
  critic?: string | undefined;
  author?: string | undefined;
  judge?: string | undefined;
  intensity?: string | undefined;
  maxRounds?: number | undefined;
  budgetMinutes?: number | undefined;
  mode?: string | undefined;
  materialize?: boolean | undefined;
  slug?: string | undefined;
  dir?: string | undefined;
  /** Effort of the seats that name none of their own (the config file's `effort`). */
  effort?: SeatConfig["effort"] | undefined;
  /** Full seat configurations (the gate's policy), over the adapters named by critic/author/judge. */
  seats?: Partial<Record<"critic" | "author" | "judge", SeatConfig>>;
  /**
   * A judge panel (the gate's `--judges` / policy): written as `judges:` (panel, quorum, fallback)
   * instead of `seats.judge`; without a panel, the one judge of `seats.judge` is the panel.
   */
  judges?: { panel?: SeatConfig[]; quorum?: number; fallback?: SeatConfig };
  /**
   * Fill what is not given from the config file: the critic's, author's and judge's seats
   * (`<adapter>[:<model>[:<effort>]]`, also accepted in critic/author/judge), `effort` and `dir`.
   * `debate review` and the MCP server ask for it; the gate reads its own config from the base revision.
   */
  fromConfig?: boolean;
}

/** A review folder just made: the frontmatter it holds, and what was snapshotted from where. */
export interface ReviewCreated extends Created {
  target: string;
  frontmatter: ReviewFrontmatter;
  /** What was reviewed, as given: the path, the scope, or `text`. */
  origin: string;
  revision?: string;
  /** The repository-relative paths a git scope changes (none for a file or a text). */
  changed: string[];
}

/**
 * The command that starts a debate of an artifact, with the flags already given (`--critic codex`):
 * `debate new` takes a motion, and the artifact is what this command snapshots.
 */
export function reviewCommandFor(flags: Readonly<Record<string, string | number>>): string {
  const given = Object.entries(flags).map(([flag, value]) => ` --${flag} ${value}`);
  return `debate review <file>${given.join("")}`;
}

/** Snapshots the artifact (a file, text, or a git scope) into a new review folder; returns where and how. */
export async function createReview(ctx: ActionContext, input: ReviewInput): Promise<ReviewCreated> {
  // The engine loads when a review is made, not when the gate's module loads.
  const [
    { detectTarget, formatRuleErrors, removeSecrets, resolveGuards, reviewFormat },
    { createDebateFolder },
  ] = await Promise.all([import("@debatekit/core"), import("@debatekit/files")]);
  const opts = input.fromConfig ? { ...input, ...(await configDefaults(ctx, input)) } : input;
  const sources = [opts.path, opts.scope, opts.text].filter((s) => s !== undefined);
  if (sources.length !== 1)
    throw new ExitError("debate review needs exactly one of <path>, --scope <scope> or --text <text|->", 2);
  let text: string;
  let origin: string;
  let revision: string | undefined;
  let changed: string[] = [];
  if (opts.scope !== undefined) {
    const { parseScope, snapshotScope } = await import("../review/scope.js");
    const snap = await snapshotScope(ctx.cwd, parseScope(String(opts.scope)));
    changed = snap.files;
    text = `${snap.artifact}${await repositorySection(snap)}`;
    origin = String(opts.scope);
    revision = snap.revision;
  } else if (opts.text !== undefined) {
    text = opts.text === "-" ? await readStdin() : String(opts.text);
    origin = "text";
  } else {
    const file = resolve(ctx.cwd, opts.path!);
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_ARTIFACT)
      throw new ExitError(`${opts.path}: expected a regular file of at most 1 MB`, 2);
    const raw = await readFile(file, "utf8");
    const ext = extname(file).toLowerCase();
    text = PROSE.has(ext)
      ? raw
      : `# File ${opts.path}\n\n\`\`\`\`${ext.slice(1)}\n${raw.replace(/\n$/, "")}\n\`\`\`\`\n`;
    origin = opts.path!;
  }
  // Secrets never reach a file (docs/architecture.md#crash-safe-and-exactly-once): a diff or file holding a key is kept with it redacted.
  text = removeSecrets(text);
  if (!text.trim()) throw new ExitError("the artifact is empty: nothing to review", 2);
  if (text.length > MAX_ARTIFACT) throw new ExitError("the artifact is over 1 MB", 2);
  const guards = resolveGuards({
    intensity: String(opts.intensity ?? "standard"),
    ...(opts.maxRounds !== undefined ? { max_rounds: Number(opts.maxRounds) } : {}),
    ...(opts.budgetMinutes !== undefined ? { budget_minutes: Number(opts.budgetMinutes) } : {}),
  });
  if (!guards.ok) throw new ExitError(formatRuleErrors(guards.errors).join("\n"), 2);
  const name =
    opts.scope !== undefined
      ? origin.replace(/[:.]+/g, " ")
      : opts.text !== undefined
        ? "text"
        : basename(origin);
  const slug = String(opts.slug ?? `review-${slugFromMotion(name)}`);
  const made = reviewFormat.newDebate({
    slug,
    seats: {
      critic: opts.critic as string | undefined,
      author: opts.author as string | undefined,
      judge: opts.judge as string | undefined,
    },
    ...(opts.effort ? { seatDefaults: { effort: opts.effort } } : {}),
    // The seats a caller gives whole (the gate's policy): their models and endpoints decide self-judging.
    ...(opts.seats ? { seatSettings: opts.seats } : {}),
    now: new Date().toISOString(),
  });
  if (!made.ok) throw new ExitError(formatRuleErrors(made.errors).join("\n"), 2);
  const fm: ReviewFrontmatter = {
    ...(made.value.frontmatter as unknown as ReviewFrontmatter),
    target:
      (opts.target ?? "auto") === "auto" ? detectTarget(text) : (opts.target as ReviewFrontmatter["target"]),
    mode: (opts.mode ?? "auto") as ReviewFrontmatter["mode"],
    intensity: guards.value.intensity,
    max_rounds: guards.value.max_rounds,
    budget_minutes: guards.value.budget_minutes,
    ...(opts.materialize === false ? { skip_materialize: true } : {}),
  };
  if (opts.seats && fm.seats) fm.seats = { ...fm.seats, ...opts.seats };
  if (opts.judges && fm.seats) {
    const { judge, ...others } = fm.seats;
    const panel = opts.judges.panel ?? (judge ? [judge] : []);
    fm.seats = others;
    fm.judges = {
      panel,
      ...(opts.judges.quorum !== undefined ? { quorum: opts.judges.quorum } : {}),
      ...(opts.judges.fallback ? { fallback: opts.judges.fallback } : {}),
    };
  }
  const artifact: ReviewArtifact = {
    kind: "original",
    version: 1,
    scope: origin,
    ...(revision ? { revision } : {}),
  };
  const records: FormatRecord[] = [
    {
      file: "artifact/v1.md",
      frontmatter: artifact as unknown as Record<string, unknown>,
      body: text.endsWith("\n") ? text : `${text}\n`,
    },
  ];
  const dir = await createDebateFolder(resolve(ctx.cwd, String(opts.dir ?? "debates")), {
    slug,
    motion: `Review of ${origin.replace(/\s+/g, " ").slice(0, 200)} (${fm.target})`,
    frontmatter: fm as unknown as Parameters<typeof createDebateFolder>[1]["frontmatter"],
    records,
  });
  return {
    dir,
    debateId: fm.debate_id,
    format: reviewFormat.name,
    warnings: made.value.warnings,
    target: fm.target,
    frontmatter: fm,
    origin,
    ...(revision ? { revision } : {}),
    changed,
  };
}

/** The config file's defaults for what `input` does not give (see ReviewInput.fromConfig). */
async function configDefaults(ctx: ActionContext, input: ReviewInput): Promise<Partial<ReviewInput>> {
  const { loadConfig } = await import("../config.js");
  const { config } = await loadConfig(ctx);
  const out: Partial<ReviewInput> = {};
  const seats: NonNullable<ReviewInput["seats"]> = {};
  for (const role of ["critic", "author", "judge"] as const) {
    const given = input[role] ?? config.seats?.[role];
    if (given === undefined) continue;
    const { adapter, ...own } = parseSeatSpec(`--${role}`, given);
    out[role] = adapter;
    if (own.model || own.effort)
      seats[role] = {
        adapter: adapter as SeatConfig["adapter"],
        ...(config.effort ? { effort: config.effort } : {}),
        ...own,
      };
  }
  if (Object.keys(seats).length > 0) out.seats = seats;
  if (config.effort) out.effort = config.effort;
  if (input.dir === undefined && config.dir) out.dir = config.dir;
  return out;
}
