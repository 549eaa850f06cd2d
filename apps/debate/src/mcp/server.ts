import { mkdir, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { Writable } from "node:stream";
import { redactSecrets, secretsFromEnv } from "@debatekit/adapter-kit";
import {
  type AnyFormat,
  DEFAULT_FORMAT_NAME,
  findFormat,
  formatList,
  formatNames,
  formatOfState,
  formatRuleErrors,
} from "@debatekit/core";
import { readDebateFolder, readTextInside, resolveInside, writeFileAtomic } from "@debatekit/files";
import { checkFolderConsent, type RunSummary } from "@debatekit/runner";
import { builtinAdapters } from "@debatekit/runner/adapters";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { ActionContext } from "../actions/context.js";
import { type Created, createDebate } from "../actions/create.js";
import { writeReport } from "../actions/report.js";
import { createReview } from "../actions/review.js";
import { runDebateAction } from "../actions/run.js";
import { debateStatus } from "../actions/status.js";
import { firstLineOf } from "../exit-error.js";
import type { CliIO } from "../output.js";
import { createProgress } from "../progress.js";
import { debateFolder, listDebateFiles, listDebates, MAX_RESOURCE_BYTES, pendingPrompts } from "./debates.js";

/** Options of the MCP server. */
export interface DebateMcpOptions {
  /** The folder debates are created in and looked up from (a debate = one sub-folder). */
  root: string;
  /** The working folder: where `review`'s files and git scopes are read, and project skills looked up. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The version the server reports. */
  version: string;
}

/** The largest manual answer `debate_answer` writes (the manual seat reads at most 1 MiB). */
const MAX_ANSWER_CHARS = 512 * 1024;

const URI_PREFIX = "debate://";

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
};

function text(value: unknown): CallToolResult {
  const body = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return { content: [{ type: "text", text: body }] };
}

function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** Runs a tool body; an error becomes a tool error naming its code, never a crashed server. */
async function guarded(env: NodeJS.ProcessEnv, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    const code = typeof e.code === "string" ? `${e.code}: ` : "";
    return failed(redactSecrets(`${code}${String(e.message ?? error)}`, secretsFromEnv(env)));
  }
}

/**
 * Sends each line of a run's progress (the same lines `debate run` prints when not on a terminal)
 * as an MCP progress notification, when the client asked for progress.
 */
function progressSink(extra: Extra): { io: CliIO["stderr"]; count: () => number } {
  const token = extra._meta?.progressToken;
  let progress = 0;
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) {
        if (!line.trim() || token === undefined) continue;
        progress++;
        extra
          .sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, message: line },
          })
          .catch(() => undefined);
      }
      done();
    },
  });
  return { io: stream, count: () => progress };
}

/**
 * Calls an action; its error becomes the one line `debate` would print for it (`debate: <message>`),
 * so a tool's error reads as the command's did.
 */
async function asTheCommandSays<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw new Error(`debate: ${firstLineOf(error)}`);
  }
}

/** Formats, their seats and length options, for the tools' descriptions. */
function formatsHelp(): string {
  return formatList()
    .map((f) => {
      const seats = f.newOptions.seats.map((s) => `${s.role}${s.required ? "" : "?"}`).join(", ");
      const { flag, min, max, default: d } = f.newOptions.length;
      return `${f.name} (seats: ${seats}; length = ${flag} ${min}-${max}, default ${d})`;
    })
    .join("; ");
}

const ADAPTER = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;
const SLUG = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** The names of the formats `test` picks, for a description: `formal, crossfire`. */
function namesOf(test: (format: AnyFormat) => boolean): string {
  return formatList()
    .filter(test)
    .map((f) => f.name)
    .join(", ");
}

const fromArtifact = (f: AnyFormat) => f.newOptions.artifact === true;
const fromMotion = (f: AnyFormat) => !fromArtifact(f);

/**
 * debate_new's input, built from the registry when the server is made (after the config's formats
 * are registered): the formats, each one's seats and length. The artifact fields are what the review
 * action takes, for the formats whose debates start from an artifact.
 */
function createShape() {
  const artifact = namesOf(fromArtifact);
  return {
    format: z.enum(formatNames()).default(DEFAULT_FORMAT_NAME).describe("the debate format"),
    motion: z
      .string()
      .max(2000)
      .optional()
      .describe(`${namesOf(fromMotion)}: the motion or topic${artifact ? `; not for ${artifact}` : ""}`),
    seats: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        `who sits where, role -> adapter, e.g. {"${findFormat(DEFAULT_FORMAT_NAME)!.newOptions.seats[0]!.role}":"claude"}; the roles: ${formatList()
          .map((f) => `${f.name}: ${f.newOptions.seats.map((seat) => seat.role).join(", ")}`)
          .join("; ")}`,
      ),
    length: z
      .number()
      .int()
      .min(1)
      .max(Math.max(...formatList().map((f) => f.newOptions.length.max)))
      .optional()
      .describe(
        formatList()
          .map((f) => {
            const { description, min, max } = f.newOptions.length;
            return `${f.name}: ${description} (${min}-${max})`;
          })
          .join("; "),
      ),
    effort: z
      .enum(["low", "medium", "high", "max"])
      .optional()
      .describe(`${namesOf(fromMotion)}: how hard seats think`),
    slug: z.string().optional().describe("the folder name (default: from the motion)"),
    path: z
      .string()
      .optional()
      .describe(`${artifact}: a file to review, relative to the server's working folder`),
    scope: z
      .string()
      .optional()
      .describe(`${artifact}: a git scope: uncommitted, commit:SHA, base:BRANCH, range:A..B or file:PATH`),
    text: z.string().max(1_000_000).optional().describe(`${artifact}: the artifact itself as text`),
    target: z
      .enum(["auto", "code", "proposal", "mixed"])
      .optional()
      .describe(`${artifact}: what the artifact is`),
    mode: z
      .enum(["auto", "manual"])
      .optional()
      .describe(`${artifact}: auto applies the judge's decision; manual waits`),
    intensity: z
      .enum(["quick", "standard", "extensive"])
      .optional()
      .describe(`${artifact}: rounds and budget preset`),
  };
}
type CreateInput = {
  format: string;
  motion?: string | undefined;
  seats?: Record<string, string> | undefined;
  length?: number | undefined;
  effort?: "low" | "medium" | "high" | "max" | undefined;
  slug?: string | undefined;
  path?: string | undefined;
  scope?: string | undefined;
  text?: string | undefined;
  target?: string | undefined;
  mode?: string | undefined;
  intensity?: string | undefined;
};

/** Refuses seats the format does not have and values that are no adapter's name, naming the field. */
function checkCreateInput(format: AnyFormat, input: CreateInput): void {
  const roles = new Set(format.newOptions.seats.map((s) => s.role));
  for (const [role, adapter] of Object.entries(input.seats ?? {})) {
    if (!roles.has(role))
      throw new Error(
        `seats.${role}: the ${format.name} format has no seat ${JSON.stringify(role)} (its seats: ${[...roles].join(", ")})`,
      );
    if (!ADAPTER.test(adapter))
      throw new Error(`seats.${role}: ${JSON.stringify(adapter)} is not an adapter name (e.g. "claude")`);
  }
  if (input.slug !== undefined && !SLUG.test(input.slug))
    throw new Error(`slug: ${JSON.stringify(input.slug)} is not a folder name (a-z, 0-9 and -)`);
  if (fromArtifact(format)) {
    const sources = [input.path, input.scope, input.text].filter((s) => s !== undefined);
    if (sources.length !== 1) throw new Error(`a ${format.name} needs exactly one of path, scope or text`);
    // `-` would read the server's stdin, which carries the protocol.
    if (input.text === "-") throw new Error("text: give the artifact itself, not `-`");
  } else if (!input.motion?.trim()) {
    throw new Error(`motion: the ${format.name} format needs a motion (or topic)`);
  }
}

/** Makes the debate folder with the action its format takes: the review action for an artifact, else create. */
function createFolder(
  ctx: ActionContext,
  root: string,
  format: AnyFormat,
  input: CreateInput,
): Promise<Created> {
  const seats = input.seats ?? {};
  if (fromArtifact(format))
    return createReview(ctx, {
      path: input.path,
      scope: input.scope,
      text: input.text,
      target: input.target,
      mode: input.mode,
      intensity: input.intensity,
      critic: seats.critic,
      author: seats.author,
      judge: seats.judge,
      maxRounds: input.length,
      slug: input.slug,
      dir: root,
      fromConfig: true,
    });
  return createDebate(ctx, {
    format: format.name,
    motion: input.motion!,
    seats,
    ...(input.length !== undefined ? { length: input.length } : {}),
    ...(input.effort !== undefined ? { effort: input.effort } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    dir: root,
  });
}

const debateArg = z
  .string()
  .describe(
    'the debate: its folder name under the debates folder, as debate_new returned it (e.g. "grpc-api")',
  );

/** Creates the MCP server of `debate mcp`: tools over the engine, and each debate's files as resources. */
export function createDebateMcpServer(options: DebateMcpOptions): McpServer {
  const root = resolve(options.cwd, options.root);
  const { env, cwd } = options;
  const server = new McpServer(
    { name: "debatekit", version: options.version },
    {
      instructions:
        "Structured debates between AI coding CLIs, decided by a judge. Create one with debate_new, advance it with debate_run (until: step or end), see where it stands with debate_status, read its arguments, turns or findings with debate_read, answer a manual seat with debate_answer, and write report.md/report.html with debate_report. Each debate's files are resources debate://<debate>/<path>. A person can watch and take part from a browser with the CLI's `debate serve`.",
    },
  );

  /** Runs a debate with progress notifications; the summary and where it waits. */
  const advance = async (name: string, until: "step" | "end", extra: Extra) => {
    const dir = await debateFolder(root, name);
    const sink = progressSink(extra);
    const progress = createProgress({
      stdout: sink.io,
      stderr: sink.io,
      env: { ...env, NO_COLOR: "1" },
      cwd,
    });
    let summary: RunSummary;
    try {
      summary = await runDebateAction(
        { cwd, env, signal: extra.signal, onEvent: progress.onEvent },
        { dir, until, command: "debate mcp" },
      );
    } finally {
      progress.stop();
    }
    const pending = summary.status === "waiting" ? await pendingPrompts(dir) : [];
    return { debate: name, ...summary, ...(pending.length > 0 ? { pending } : {}) };
  };

  server.registerTool(
    "debate_new",
    {
      title: "Create a debate",
      description: `Creates a debate folder ready to run, in any format: ${formatsHelp()}. Adapters: ${builtinAdapters.join(", ")} (manual: a person or this agent answers through debate_answer). Returns the debate's name for the other tools. Nothing runs until debate_run.`,
      inputSchema: createShape(),
    },
    async (input) =>
      guarded(env, async () => {
        await mkdir(root, { recursive: true });
        if (input.path !== undefined) {
          // A review's file must be inside the working folder the user started the server in.
          const file = isAbsolute(input.path) ? relative(cwd, input.path) : input.path;
          resolveInside(cwd, file);
          input.path = file;
        }
        const format = findFormat(input.format)!;
        checkCreateInput(format, input);
        const made = await asTheCommandSays(() => createFolder({ cwd, env }, root, format, input));
        return text({
          debate: relative(root, made.dir),
          debate_id: made.debateId,
          format: made.format,
          ...(made.target ? { target: made.target } : {}),
          files: await listDebateFiles(made.dir),
          ...(made.warnings.length > 0 ? { warnings: made.warnings } : {}),
          next: "debate_run",
        });
      }),
  );

  server.registerTool(
    "debate_run",
    {
      title: "Advance a debate",
      description:
        "Does the work the debate's files say is next: one step (until: step, e.g. both debaters' arguments, or the judge's scores) or up to the end (until: end), sending a progress notification per seat started or finished and per committed step. Resumes where it stopped; a paid answer is never asked again. Ends done, waiting (a manual seat: answer it with debate_answer), paused or failed (the error names the file and field). A long debate may outlast a client's tool timeout: use until: step and call again.",
      inputSchema: {
        debate: debateArg,
        until: z
          .enum(["step", "end"])
          .default("end")
          .describe("one step, or until the debate is done or waits"),
      },
    },
    async ({ debate, until }, extra) =>
      guarded(env, async () => {
        const result = await advance(debate, until, extra as Extra);
        return { ...text(result), ...(result.status === "failed" ? { isError: true } : {}) };
      }),
  );

  server.registerTool(
    "debate_status",
    {
      title: "Where debates stand",
      description:
        "Status of one debate (format, phase, exchange or round, standing, outcome, last error, manual seats waiting for an answer), or of every debate in the debates folder when no debate is given.",
      inputSchema: { debate: debateArg.optional() },
    },
    async ({ debate }) =>
      guarded(env, async () => {
        const names = debate !== undefined ? [debate] : await listDebates(root);
        const rows = [];
        for (const name of names) {
          const dir = await debateFolder(root, name);
          const { dir: _dir, ...row } = await debateStatus(dir);
          const pending = await pendingPrompts(dir);
          rows.push({ debate: name, ...row, ...(pending.length > 0 ? { pending } : {}) });
        }
        return text(debate !== undefined ? rows[0] : { root, debates: rows });
      }),
  );

  server.registerTool(
    "debate_read",
    {
      title: "Read a debate's arguments, turns or findings",
      description:
        "The debate's motion and its committed records, as its format keeps them: arguments (Toulmin fields, attacks, defenses) with their scores, turns and a verdict, rounds (findings with severity and evidence, the judge's classification) and artifact versions. `only` keeps records whose file starts with it (e.g. arguments/prop_001, turns/, rounds/, verdict.md).",
      inputSchema: {
        debate: debateArg,
        only: z.string().max(200).optional().describe("a file prefix, e.g. arguments/ or turns/r02"),
      },
    },
    async ({ debate, only }) =>
      guarded(env, async () => {
        const dir = await debateFolder(root, debate);
        const read = await readDebateFolder(dir);
        if (!read.ok) return failed(formatRuleErrors(read.errors).join("\n"));
        const { state } = read.value;
        const keep = (file: string) => only === undefined || file.startsWith(only);
        const args = state.arguments.filter((a) => keep(`arguments/${a.frontmatter.id}`));
        const records = (state.records ?? []).filter((r) => keep(r.file));
        return text({
          debate,
          format: formatOfState(state).name,
          motion: state.motion,
          ...(args.length > 0 ? { arguments: args } : {}),
          ...(args.length > 0 && Object.keys(state.scores).length > 0 ? { scores: state.scores } : {}),
          records,
        });
      }),
  );

  server.registerTool(
    "debate_answer",
    {
      title: "Answer a manual seat",
      description:
        "Writes the answer of a seat whose adapter is `manual` (inbox/<step>.md, the answer its prompt in prompts/ asks for: usually JSON, prose around it is fine), then advances the debate (until: end by default, or step, or none to only write it). debate_status lists the prompts waiting; read one as the resource debate://<debate>/prompts/<file>.",
      inputSchema: {
        debate: debateArg,
        role: z.string().max(64).optional().describe("the seat answered (needed when several wait)"),
        answer: z.string().min(1).max(MAX_ANSWER_CHARS).describe("the answer, as the prompt asks for it"),
        until: z.enum(["none", "step", "end"]).default("end"),
      },
    },
    async ({ debate, role, answer, until }, extra) =>
      guarded(env, async () => {
        const dir = await debateFolder(root, debate);
        const waiting = await pendingPrompts(dir);
        const fits = waiting.filter((p) => role === undefined || p.role === role);
        if (fits.length !== 1) {
          const list = waiting.map((p) => `${p.role} (${p.prompt})`).join(", ") || "none";
          return failed(
            fits.length === 0
              ? `no manual seat${role ? ` ${role}` : ""} is waiting for an answer in ${debate} (waiting: ${list}); run the debate first so it writes the prompt`
              : `several seats are waiting (${list}): say which with role`,
          );
        }
        const target = fits[0]!;
        // A folder whose programs are not allowed is refused before the answer is written.
        if (until !== "none") await checkFolderConsent(dir, { env });
        await mkdir(join(dir, "inbox"), { recursive: true });
        await writeFileAtomic(
          resolveInside(dir, target.inbox),
          answer.endsWith("\n") ? answer : `${answer}\n`,
        );
        const wrote = { wrote: target.inbox, role: target.role };
        if (until === "none") return text({ debate, ...wrote });
        const result = await advance(debate, until, extra as Extra);
        return { ...text({ ...wrote, ...result }), ...(result.status === "failed" ? { isError: true } : {}) };
      }),
  );

  server.registerTool(
    "debate_report",
    {
      title: "Write the report",
      description:
        "Writes report.md and a self-contained report.html into the debate folder and returns report.md's text with the report's facts (status, alerts, verdict headline, winner, strongest and weakest arguments, tokens).",
      inputSchema: { debate: debateArg },
    },
    async ({ debate }) =>
      guarded(env, async () => {
        const dir = await debateFolder(root, debate);
        const facts = await asTheCommandSays(() => writeReport({ cwd, env }, { dir }));
        const markdown = await readFile(join(dir, "report.md"), "utf8");
        return {
          content: [
            { type: "text", text: JSON.stringify({ debate, ...facts, dir: undefined }, null, 2) },
            { type: "text", text: markdown },
          ],
        };
      }),
  );

  server.registerResource(
    "debate-file",
    new ResourceTemplate(`${URI_PREFIX}{debate}/{+path}`, {
      list: async () => {
        const resources = [];
        for (const name of await listDebates(root)) {
          const dir = join(root, name);
          for (const file of await listDebateFiles(dir))
            resources.push({
              uri: `${URI_PREFIX}${name}/${file}`,
              name: `${name}/${file}`,
              mimeType: mimeOf(file),
            });
        }
        return { resources };
      },
    }),
    {
      title: "A debate's file",
      description:
        "debate.md, arguments, turns, rounds, verdict, scores, prompts, reports: any file of a debate folder",
    },
    async (uri, variables) => {
      const name = String(variables.debate);
      const path = decodeURIComponent(String(variables.path));
      const dir = await debateFolder(root, name);
      if (path.split("/")[0] === ".debate")
        throw new Error(`${path}: the engine's own files are not resources`);
      const read = await readTextInside(dir, path, MAX_RESOURCE_BYTES);
      if (!read.ok) throw new Error(formatRuleErrors(read.errors).join("; "));
      if (read.value === undefined) throw new Error(`${name}/${path}: no such file`);
      return { contents: [{ uri: uri.href, mimeType: mimeOf(path), text: read.value }] };
    },
  );

  return server;
}

function mimeOf(file: string): string {
  if (file.endsWith(".md")) return "text/markdown";
  if (file.endsWith(".json")) return "application/json";
  if (file.endsWith(".html")) return "text/html";
  if (file.endsWith(".jsonl")) return "application/jsonl";
  return "text/plain";
}
