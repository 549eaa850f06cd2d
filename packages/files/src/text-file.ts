import { readFile, stat } from "node:fs/promises";
import type { Result } from "@debatekit/core";
import { DebatekitError, quote } from "@debatekit/core";
import { resolveInside } from "./paths.js";

/** Largest markdown file read (debate.md, an argument): arguments are a few KiB; 1 MiB means something is wrong. */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;
/** Largest scores.json or journal entry read: 1000 exchanges of long reasonings fit well below it. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

function failure(code: string, file: string, message: string): Result<string | undefined> {
  return { ok: false, errors: [{ code, path: `${file}:(file)`, message: `${file}: ${message}` }] };
}

/** Reads a UTF-8 text file inside `dir` (undefined when absent); refuses escapes, huge, binary and non-UTF-8 files. */
export async function readTextInside(
  dir: string,
  file: string,
  maxBytes: number,
): Promise<Result<string | undefined>> {
  let target: string;
  try {
    target = resolveInside(dir, file);
  } catch (error) {
    if (error instanceof DebatekitError) return failure(error.code, file, error.message);
    throw error;
  }
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    // resolveInside has already refused symlinks that lead out, so following them here is safe.
    stats = await stat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, value: undefined };
    throw error;
  }
  if (!stats.isFile()) return failure("FILE_NOT_REGULAR", file, "expected a regular file");
  if (stats.size > maxBytes) {
    return failure("FILE_TOO_LARGE", file, `expected at most ${maxBytes} bytes, the file has ${stats.size}`);
  }
  const bytes = await readFile(target);
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    return failure(
      "FILE_BINARY",
      file,
      `expected text, found a NUL byte at offset ${nul} (binary content): ${quote(bytes.subarray(Math.max(0, nul - 100), nul + 100).toString("latin1"))}`,
    );
  }
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch (error) {
    const at = firstInvalidUtf8(bytes);
    return {
      ok: false,
      errors: [
        {
          code: "FILE_NOT_UTF8",
          path: `${file}:(file)`,
          message: `${file}: expected UTF-8 text, found an invalid byte sequence at offset ${at}: ${quote(bytes.subarray(Math.max(0, at - 100), at + 100).toString("latin1"))} (${(error as Error).message})`,
        },
      ],
    };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (for the message). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length - 1;
  }
  return 0;
}
