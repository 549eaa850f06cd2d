import type { Stats } from "node:fs";
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import type { Result } from "@debatekit/core";
import { clipText, clipTextEnd, DebatekitError, quote } from "@debatekit/core";
import { resolveInside } from "./paths.js";

/** Largest markdown file read (debate.md, an argument): arguments are a few KiB; 1 MiB means something is wrong. */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;
/** Largest scores.json or journal entry read: 1000 exchanges of long reasonings fit well below it. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

function failure<T = string | undefined>(code: string, file: string, message: string): Result<T> {
  return { ok: false, errors: [{ code, path: `${file}:(file)`, message: `${file}: ${message}` }] };
}

/** What a file that is not a regular file is, for the message. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

const ABSENT = new Set(["ENOENT", "ENOTDIR"]);

/**
 * The bytes of a regular file, at most `maxBytes`: opened without blocking (a FIFO swapped in after
 * the check cannot hang the read), checked on the open handle, read with a cap (a file that grows
 * while it is read cannot exhaust memory). The calls are synchronous: each is a local metadata call
 * or a read of a regular file of bounded size, and a step makes dozens of them, which through the
 * thread pool cost more CPU than the reads themselves.
 */
async function readRegularFile(
  target: string,
  file: string,
  maxBytes: number,
): Promise<Result<Uint8Array | undefined>> {
  const refuse = (code: string, message: string) => failure<Uint8Array | undefined>(code, file, message);
  let fd: number;
  try {
    // A path check first, so a device or FIFO is never even opened.
    const before = statSync(target);
    if (!before.isFile())
      return refuse("FILE_NOT_REGULAR", `expected a regular file, found ${kindOf(before)}`);
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? "")) return { ok: true, value: undefined };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refuse("FILE_NOT_REGULAR", `expected a regular file, found ${kindOf(stats)}`);
    const tooLarge = (size: string) =>
      refuse("FILE_TOO_LARGE", `expected at most ${maxBytes} bytes, the file has ${size}`);
    if (stats.size > maxBytes) return tooLarge(String(stats.size));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // What fstat announced plus a little: a file that grows while it is read is read in 4 KiB steps, not 1 byte.
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(stats.size - total, 0) + 4096, 1024 * 1024));
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return tooLarge(`more (it grew while it was read)`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return { ok: true, value: Buffer.concat(chunks, total) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a UTF-8 text file inside `dir` (undefined when absent); refuses escapes, anything but a
 * regular file (directory, FIFO, device, socket), files over `maxBytes`, binary and non-UTF-8 files.
 * Every refusal is an error with a stable code naming the file (`<file>:(file)`).
 */
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
  // resolveInside has already refused symlinks that lead out, so following them here is safe.
  const read = await readRegularFile(target, file, maxBytes);
  if (!read.ok) return read;
  if (read.value === undefined) return { ok: true, value: undefined };
  const bytes = read.value;
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    return failure(
      "FILE_BINARY",
      file,
      `expected text, found a NUL byte at offset ${nul} (binary content): ${around(bytes, nul)}`,
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
          message: `${file}: expected UTF-8 text, found an invalid byte sequence at offset ${at}: ${around(bytes, at)} (${(error as Error).message})`,
        },
      ],
    };
  }
}

/** The content around byte `at`, quoted: redacted before it is cut (a window cut first could halve a secret). */
function around(bytes: Uint8Array, at: number): string {
  const latin1 = (from: number, to?: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");
  return quote(`${clipTextEnd(latin1(0, at), 100)}${clipText(latin1(at), 100)}`);
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
