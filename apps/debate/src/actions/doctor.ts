import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Detection, SeatSafetyReport } from "@debatekit/adapter-kit";
import type { AnyState } from "@debatekit/core";
import type { Consent } from "@debatekit/files";
import type { SeatConfig } from "@debatekit/schema";
import { ExitError } from "../exit-error.js";

/** The adapters `debate doctor` checks, in the order it lists them. */
export const doctorAdapters = [
  "claude",
  "codex",
  "gemini",
  "opencode",
  "copilot",
  "qwen",
  "kilo",
  "acp",
  "http",
] as const;

/** Whether a CLI can answer without a person: which credentials were found (names only, never values). */
export interface AuthCheck {
  /** found: a credential is there; missing: none of the known ones; unknown: cannot be told from outside. */
  status: "found" | "missing" | "unknown";
  /** Names of the variables set, or the credential files found (paths under HOME shown with ~). */
  via: string[];
  /** What to do when nothing was found. */
  fix?: string;
}

/** One line of the report. */
export interface DoctorRow extends Detection {
  /** The debate seat this row checks (`debate doctor <folder>`), absent for the adapter list. */
  seat?: string;
  auth: AuthCheck;
  /** Installed, usable, and not known to lack credentials. */
  ready: boolean;
  /**
   * For a debate's seat: what it may do on the machine (tools), what of the user's setup reaches
   * it (isolation) and the model server it calls. Absent for seats that run no program.
   */
  safety?: SeatSafetyReport;
  /**
   * A seat whose `command:` (or workspace outside the folder) the user has not allowed: what it
   * would run. Doctor does not start it (not even for its version), and the seat is not ready.
   */
  notAllowed?: string;
  /** The seat's own `command:` (allowed): a program of the user's choosing, not the adapter's CLI. */
  program?: string;
}

interface AuthSource {
  env: string[];
  /** Credential files relative to HOME (or a variable naming their folder). */
  files: (env: NodeJS.ProcessEnv, home: string) => string[];
  fix: string;
}

// Where each CLI keeps what lets it run unattended. Values are never read, only presence.
const authSources: Record<string, AuthSource> = {
  claude: {
    env: [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "CLAUDE_CODE_OAUTH_TOKEN",
      "CLAUDE_CODE_USE_BEDROCK",
      "CLAUDE_CODE_USE_VERTEX",
    ],
    files: (_env, home) => [join(home, ".claude", ".credentials.json")],
    fix: "set ANTHROPIC_API_KEY, or run `claude` once and /login (or `claude setup-token`)",
  },
  codex: {
    env: ["OPENAI_API_KEY", "CODEX_API_KEY"],
    files: (env, home) => [join(env.CODEX_HOME ?? join(home, ".codex"), "auth.json")],
    fix: "set OPENAI_API_KEY, or run `codex login`",
  },
  gemini: {
    env: ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_APPLICATION_CREDENTIALS"],
    files: (_env, home) => [join(home, ".gemini", "oauth_creds.json")],
    fix: "set GEMINI_API_KEY, or run `gemini` once and log in with Google",
  },
  opencode: {
    env: [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GEMINI_API_KEY",
      "OPENROUTER_API_KEY",
      "OPENCODE_CONFIG_CONTENT",
    ],
    files: (env, home) => [join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "opencode", "auth.json")],
    fix: "run `opencode auth login`, or set a provider key such as ANTHROPIC_API_KEY",
  },
  copilot: {
    env: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
    files: () => [],
    fix: "set COPILOT_GITHUB_TOKEN (a token with the Copilot Requests permission), or run `copilot` and /login",
  },
  qwen: {
    env: ["OPENAI_API_KEY", "DASHSCOPE_API_KEY"],
    files: (env, home) => [join(env.QWEN_HOME ?? join(home, ".qwen"), "settings.json")],
    fix: "set OPENAI_API_KEY (with the seat's base_url), or put security.auth in ~/.qwen/settings.json",
  },
  kilo: {
    env: ["KILO_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "KILO_CONFIG_CONTENT"],
    files: (env, home) => [join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "kilo", "auth.json")],
    fix: "run `kilo auth login`, or set a provider key such as ANTHROPIC_API_KEY",
  },
};

function tilde(path: string, home: string): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Which credentials an adapter's CLI would find in `env` and under HOME (presence only). */
export function checkAuth(adapter: string, env: NodeJS.ProcessEnv): AuthCheck {
  const source = authSources[adapter];
  // acp agents log in through their own CLI; http seats are checked by detect() (the key variable).
  if (!source) return { status: "unknown", via: [] };
  const home = env.HOME ?? homedir();
  const vars = source.env.filter((name) => Boolean(env[name]));
  const files = source.files(env, home).filter((file) => existsSync(file));
  const via = [...vars, ...files.map((f) => tilde(f, home))];
  if (via.length > 0) return { status: "found", via };
  // Copilot (and others on macOS) may keep the login in the system keychain: not visible here.
  return adapter === "copilot"
    ? { status: "unknown", via, fix: source.fix }
    : { status: "missing", via, fix: source.fix };
}

/** Detects one adapter for one seat and adds the auth check. */
export async function diagnoseSeat(
  seat: SeatConfig,
  context: { debateDir: string; env: NodeJS.ProcessEnv },
): Promise<DoctorRow> {
  let detection: Detection;
  let safety: SeatSafetyReport | undefined;
  const { createSeatAdapter } = await import("@debatekit/runner");
  try {
    const adapter = await createSeatAdapter(seat, context);
    detection = await adapter.detect();
    safety = adapter.safety?.();
  } catch (error) {
    detection = {
      adapter: seat.adapter,
      installed: false,
      usable: false,
      hint: (error as Error).message.split("\n")[0],
    };
  }
  // A seat's own key variable is what it authenticates with, whatever the CLI would look for.
  const keyEnv = seat.api_key_env;
  const auth: AuthCheck =
    keyEnv && context.env[keyEnv] ? { status: "found", via: [keyEnv] } : checkAuth(seat.adapter, context.env);
  return {
    ...detection,
    auth,
    ready: detection.installed && detection.usable && auth.status !== "missing" && !safety?.unavailable,
    ...(safety ? { safety } : {}),
  };
}

/**
 * The row of a seat that names a program the user has not allowed (or a workspace never allowed),
 * made without starting anything; undefined when the seat may be checked as usual.
 */
async function unallowedSeat(
  role: string,
  seat: SeatConfig,
  context: { consent: Consent; debateDir: string; realDir: string; env: NodeJS.ProcessEnv; shown: string },
): Promise<Omit<DoctorRow, "seat" | "notAllowed"> | undefined> {
  const { programsOfFrontmatter, unallowedPrograms, whatItWouldDo } = await import("@debatekit/files");
  const found = await programsOfFrontmatter({ seats: { [role]: seat } }, context.debateDir, context);
  const refused = found.refused[0]?.message;
  const program = unallowedPrograms(context.consent, {
    dir: context.realDir,
    file: "debate.md",
    ...found,
  })[0];
  if (!refused && !program) return undefined;
  const hint = refused
    ? `refused: ${refused}`
    : `${whatItWouldDo(program!)}; not allowed, so doctor did not ${program!.kind === "endpoint" ? "contact" : "start"} it (check it, then: debate allow ${context.shown})`;
  return {
    adapter: seat.adapter,
    installed: false,
    usable: false,
    hint,
    auth: { status: "unknown", via: [] },
    ready: false,
  };
}

/**
 * The seats a debate's format calls, by role, in the format's order (from the registry, so a format
 * from outside is diagnosed too): each of its roles, a judge role once per judge of the panel, then
 * any other seat debate.md names.
 */
async function seatsToCheck(state: AnyState, onlyUsed = false): Promise<Array<[string, SeatConfig]>> {
  const { formatOfState, judgeRole, judgingOf, seatConfigs } = await import("@debatekit/core");
  const format = formatOfState(state);
  // A seat the debate's length never calls (crossfire's summarizer in a 2-round debate).
  const planned = onlyUsed ? format.plannedCalls?.(state.frontmatter) : undefined;
  const unused = (role: string) => planned?.[role] === 0;
  const named = seatConfigs(state.frontmatter);
  const panel = (judgingOf(state.frontmatter)?.panel ?? []).map((_, index) => judgeRole(index));
  const roles = new Set([
    ...format.roles.flatMap((spec) => (spec.kind === "judge" ? panel : [spec.role])),
    ...Object.keys(named),
  ]);
  return [...roles].flatMap((role): Array<[string, SeatConfig]> => {
    if (unused(role)) return [];
    const seat = format.seat(state, role) ?? named[role];
    return seat ? [[role, seat]] : [];
  });
}

/** Adapters that start no program of their own: nothing to install (an http seat's server is checked when called). */
const NO_PROGRAM = new Set(["http", "manual", "replay"]);

/** Every adapter's row (default seats: no model, no command). */
export function diagnoseAdapters(context: {
  debateDir: string;
  env: NodeJS.ProcessEnv;
}): Promise<DoctorRow[]> {
  return Promise.all(doctorAdapters.map((adapter) => diagnoseSeat({ adapter }, context)));
}

/** What to do about a row, or undefined when nothing is needed. */
export function nextStep(row: DoctorRow): string | undefined {
  // Not there or broken: the adapter's own hint says how to install or fix it.
  if (!row.installed || !row.usable) return row.hint;
  if (row.auth.status === "found") return undefined;
  return row.auth.fix ?? row.hint;
}

/**
 * Every seat of the debate in `dir` checked as doctor checks it: a seat whose program the user has
 * not allowed is shown, never started. `shown` names the folder in hints (`debate allow <shown>`).
 * `onlyUsed`: only the seats the debate's length calls (its format's plannedCalls); `programsOnly`:
 * only seats that start a program (no http seat's server is contacted, no person or recording checked).
 */
export async function diagnoseDebateSeats(
  dir: string,
  context: { env: NodeJS.ProcessEnv; shown: string; onlyUsed?: boolean; programsOnly?: boolean },
): Promise<DoctorRow[]> {
  const { loadConsent, readDebateFolder, readFolderPrograms, shellQuote } = await import("@debatekit/files");
  const { env, shown } = context;
  const read = await readDebateFolder(dir);
  if (!read.ok) {
    const first = read.errors[0];
    throw new ExitError(
      `${shown}: ${first?.path ? `\`${first.path}\` ` : ""}${first?.message ?? "cannot be read"}`,
      2,
    );
  }
  const seats = (await seatsToCheck(read.value.state, context.onlyUsed)).filter(
    ([, seat]) => !context.programsOnly || !NO_PROGRAM.has(seat.adapter),
  );
  const consent = await loadConsent(env);
  const { dir: realDir } = await readFolderPrograms(dir, { env });
  return Promise.all(
    seats.map(async ([role, seat]): Promise<DoctorRow> => {
      const blocked = await unallowedSeat(role, seat, { consent, debateDir: dir, realDir, env, shown });
      if (blocked) return { seat: role, ...blocked, notAllowed: `${blocked.hint}` };
      const own = seat.command;
      return {
        seat: role,
        ...(await diagnoseSeat(seat, { debateDir: dir, env })),
        ...(own ? { program: shellQuote(own) } : {}),
      };
    }),
  );
}
