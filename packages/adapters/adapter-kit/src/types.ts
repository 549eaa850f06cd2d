import type { AdapterResult, Effort, EffortMap, JournalEntry, SeatConfig } from "@debatekit/schema";

/** A seat of a debate: who is being asked (taken from the journal schema, not restated). */
export type SeatRole = JournalEntry["role"];

/** Which step of which debate a call answers; offline seats (replay, manual) key their answers on it. */
export interface SeatStep {
  debateId: string;
  exchange: number;
  role: SeatRole;
  attempt: number;
}

/** One request to a seat: the prompt and how to run it (docs/architecture.md#adapters-and-seat-safety). */
export interface SeatRequest {
  prompt: string;
  model?: string;
  effort?: Effort;
  timeoutMs: number;
  /**
   * Unused by process adapters since seats got sandboxes (docs/architecture.md#adapters-and-seat-safety): a seat's process always runs
   * in a folder of its own (or its `workspace`), never the caller's working directory.
   */
  cwd?: string;
  signal?: AbortSignal;
  sessionId?: string;
  step?: SeatStep;
}

/** The seat result envelope plus the sanitized raw output, which the runner journals. */
export interface SeatCall extends AdapterResult {
  raw?: { stdout: string; stderr: string; truncated: boolean };
}

/** Whether an adapter's program is installed and usable here (for `debate doctor`). */
export interface Detection {
  adapter: string;
  installed: boolean;
  version?: string;
  path?: string;
  usable: boolean;
  hint?: string;
}

/** What a seat may do on the machine and what of the user's setup reaches it (`debate doctor`). */
export interface SeatSafetyReport {
  tools: "none" | "read";
  /** The folder a `tools: read` seat may read. */
  workspace?: string;
  isolation: "on" | "off";
  /** The model server the seat calls: its base URL, or where that is decided. */
  endpoint: string;
  /** How tools are kept off (or confined to the workspace). */
  toolsSwitches: string;
  /** What of the user's setup is kept away from the seat. */
  isolated: string;
  /** What of the user's setup still reaches the seat (credentials, provider settings). */
  passedThrough: string;
  /** Set when the seat cannot run as configured (e.g. `tools: read` on a CLI without read-only tools): why. */
  unavailable?: string;
}

/** One seat's way of answering a prompt. */
export interface Adapter {
  readonly name: string;
  call(request: SeatRequest): Promise<SeatCall>;
  detect(): Promise<Detection>;
  /** What the seat may do and what reaches it; absent for adapters that run no program (replay, manual). */
  safety?(): SeatSafetyReport;
}

/** What an adapter factory may use besides its seat configuration. */
export interface AdapterContext {
  debateDir: string;
  /** The role of debate.md's seat the adapter is made for (errors name the seat's field with it). */
  role?: string;
  env?: NodeJS.ProcessEnv;
  effortMap?: EffortMap;
}

/** The factory every adapter package exports as `createAdapter`. */
export type CreateAdapter = (seat: SeatConfig, context: AdapterContext) => Adapter;
