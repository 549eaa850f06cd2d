import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type Id = string | number;

const requestId = (m: JSONRPCMessage): Id | undefined =>
  "method" in m && "id" in m ? (m.id as Id) : undefined;
const replyId = (m: JSONRPCMessage): Id | undefined =>
  !("method" in m) && "id" in m ? (m.id as Id) : undefined;

/**
 * Keeps count of the requests a connected server has taken and not yet answered, so the server is
 * closed only once its replies are out: a client that sends a call and closes stdin at once still
 * gets the answer. Call after `server.connect(transport)` (it wraps the handlers connect set).
 */
export function trackRequests(transport: Transport): { settled(): Promise<void> } {
  const open = new Set<Id>();
  let wake: (() => void) | undefined;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) open.add(id);
    deliver?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = replyId(message);
      if (id !== undefined && open.delete(id) && open.size === 0) wake?.();
    }
  };
  return {
    settled: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((done) => {
            wake = done;
          }),
  };
}
