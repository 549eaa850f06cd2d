import { lstat, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { literalSeatSecretErrors } from "@debatekit/files";
import { type GatePolicy, validateGatePolicy } from "@debatekit/schema";
import { parse } from "yaml";
import { ExitError, firstLineOf } from "../exit-error.js";

const MAX_POLICY = 64 * 1024;
const EXAMPLE = "block_on: [P1]\ncount_unverified: false\nfallback_judge: { adapter: gemini }";

/** Reads and checks a gate policy file (YAML or JSON); a bad one names the file and the field (exit 2: undecided). */
export async function loadGatePolicy(cwd: string, file: string | undefined): Promise<GatePolicy> {
  if (file === undefined) return {};
  const path = resolve(cwd, file);
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_POLICY)
    throw new ExitError(`${file}: expected a policy file (YAML or JSON) of at most 64 KiB`, 2);
  let data: unknown;
  try {
    data = parse(await readFile(path, "utf8")) ?? {};
  } catch (error) {
    throw new ExitError(`${file}: not YAML or JSON: ${firstLineOf(error)}`, 2, {
      cause: error,
    });
  }
  const checked = validateGatePolicy(data);
  if (!checked.ok) {
    const first = checked.errors[0]!;
    throw new ExitError(
      `${file}: field \`${first.path || "(root)"}\` ${first.message} (a valid policy: ${EXAMPLE.replace(/\n/g, "; ")})`,
      2,
    );
  }
  // Checked before a review is created from it: its debate.md would hold the key otherwise.
  const { critic, author, judge, judges, fallback_judge } = checked.value;
  const panel = Object.fromEntries((judges ?? []).map((seat, i) => [`judges[${i}]`, seat]));
  const secret = literalSeatSecretErrors({ critic, author, judge, fallback_judge, ...panel }, file, "")[0];
  if (secret) throw new ExitError(secret.message, 2);
  return checked.value;
}
