import { Transform, type TransformCallback } from "node:stream";

/** The largest MCP message `debate mcp` reads: one JSON-RPC line of at most 4 MiB. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How much of a too-large line is kept to find its `id` (JSON-RPC puts it near the start in practice). */
const HEAD_BYTES = 1024;

/** The `id` of a request, read from the start of its line when it can be; else null (as JSON-RPC says). */
function requestId(head: string): string | number | null {
  const found = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!found) return null;
  return found[1]!.startsWith('"') ? (JSON.parse(found[1]!) as string) : Number(found[1]);
}

/** A JSON-RPC error response as one line. */
export function errorLine(id: string | number | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/**
 * Passes stdin on line by line, as the SDK's stdio transport reads it, but never holds a line
 * longer than `maxBytes`: such a line is dropped as it arrives and answered with a JSON-RPC
 * error (-32600), and a line that is not JSON with -32700. The SDK would instead give up on the
 * whole stream (its own buffer has a 10 MiB cap) and the server would end without a word.
 */
export function limitLines(answer: (line: string) => void, maxBytes = MAX_MESSAGE_BYTES): Transform {
  let parts: Buffer[] = [];
  let size = 0;
  // While a too-large line goes by: the start of it (for its id), until its newline.
  let dropping: Buffer | undefined;
  const endLine = (push: (line: Buffer) => void) => {
    if (dropping) {
      const head = dropping.toString("utf8");
      answer(
        errorLine(
          requestId(head),
          -32600,
          `message too large: over ${maxBytes} bytes (the most debate mcp reads in one message); it was not read`,
        ),
      );
    } else {
      const line = Buffer.concat(parts);
      if (line.toString("utf8").trim() !== "") {
        try {
          JSON.parse(line.toString("utf8"));
          push(line);
        } catch (error) {
          answer(errorLine(null, -32700, `parse error: ${(error as Error).message.slice(0, 200)}`));
        }
      }
    }
    parts = [];
    size = 0;
    dropping = undefined;
  };
  const take = (chunk: Buffer) => {
    if (dropping) {
      if (dropping.length < HEAD_BYTES) dropping = Buffer.concat([dropping, chunk]).subarray(0, HEAD_BYTES);
      return;
    }
    parts.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      dropping = Buffer.concat(parts).subarray(0, HEAD_BYTES);
      parts = [];
      size = 0;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let rest = chunk;
      for (let at = rest.indexOf(10); at !== -1; at = rest.indexOf(10)) {
        take(rest.subarray(0, at));
        endLine((line) => this.push(Buffer.concat([line, Buffer.from("\n")])));
        rest = rest.subarray(at + 1);
      }
      if (rest.length > 0) take(rest);
      done();
    },
  });
}
