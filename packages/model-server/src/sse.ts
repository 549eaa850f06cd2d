// Wire formats of the model APIs the real CLIs call, as streams of server-sent events.
// Shapes follow the providers' published streaming references (Anthropic Messages streaming,
// OpenAI Responses streaming, OpenAI Chat Completions chunks, Gemini streamGenerateContent);
// the CLIs validate them strictly, so every field they read is present.

/** One server-sent event: an optional event name and a JSON payload (or a raw string). */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** Serializes events to the text/event-stream wire format. */
export function serializeSse(events: SseEvent[]): string {
  return events
    .map((e) => {
      const data = typeof e.data === "string" ? e.data : JSON.stringify(e.data);
      return `${e.event ? `event: ${e.event}\n` : ""}data: ${data}\n\n`;
    })
    .join("");
}

export interface AnswerUsage {
  /** Every input token, cached ones included (each API below splits or nests them its own way). */
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` served from the provider's prompt cache (default 0). */
  cachedInputTokens?: number;
}

const cachedOf = (usage: AnswerUsage): number => usage.cachedInputTokens ?? 0;

function splitText(text: string): string[] {
  // Two deltas prove the CLI concatenates chunks instead of keeping only the last one.
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

/** Anthropic Messages API stream (`POST /v1/messages`, stream: true). */
export function anthropicEvents(text: string, model: string, usage: AnswerUsage, id: string): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            // Anthropic counts cache reads apart: input_tokens is only the uncached part.
            input_tokens: usage.inputTokens - cachedOf(usage),
            output_tokens: 1,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: cachedOf(usage),
          },
        },
      },
    },
    {
      event: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  for (const chunk of splitText(text)) {
    events.push({
      event: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: chunk } },
    });
  }
  events.push(
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return events;
}

/** OpenAI Responses API stream (`POST /v1/responses`), as codex and copilot read it. */
export function responsesEvents(text: string, model: string, usage: AnswerUsage, id: string): SseEvent[] {
  const itemId = `msg_${id}`;
  const response = (status: string, output: unknown[]) => ({
    id: `resp_${id}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
  });
  const message = {
    type: "message",
    id: itemId,
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  const events: SseEvent[] = [
    { event: "response.created", data: { type: "response.created", response: response("in_progress", []) } },
    {
      event: "response.in_progress",
      data: { type: "response.in_progress", response: response("in_progress", []) },
    },
    {
      event: "response.output_item.added",
      data: {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
      },
    },
    {
      event: "response.content_part.added",
      data: {
        type: "response.content_part.added",
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      },
    },
  ];
  for (const chunk of splitText(text)) {
    events.push({
      event: "response.output_text.delta",
      data: {
        type: "response.output_text.delta",
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        delta: chunk,
      },
    });
  }
  events.push(
    {
      event: "response.output_text.done",
      data: { type: "response.output_text.done", item_id: itemId, output_index: 0, content_index: 0, text },
    },
    {
      event: "response.content_part.done",
      data: {
        type: "response.content_part.done",
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text, annotations: [] },
      },
    },
    {
      event: "response.output_item.done",
      data: { type: "response.output_item.done", output_index: 0, item: message },
    },
    {
      event: "response.completed",
      data: {
        type: "response.completed",
        response: {
          ...response("completed", [message]),
          usage: {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: cachedOf(usage) },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        },
      },
    },
  );
  return events;
}

/** OpenAI Chat Completions stream (`POST /v1/chat/completions`, stream: true). */
export function chatEvents(text: string, model: string, usage: AnswerUsage, id: string): SseEvent[] {
  const base = {
    id: `chatcmpl-${id}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const events: SseEvent[] = [
    {
      data: {
        ...base,
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      },
    },
  ];
  for (const chunk of splitText(text)) {
    events.push({
      data: { ...base, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] },
    });
  }
  events.push(
    { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] } },
    {
      data: {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
          prompt_tokens_details: { cached_tokens: cachedOf(usage) },
        },
      },
    },
    { data: "[DONE]" },
  );
  return events;
}

/** One Gemini GenerateContentResponse (a whole `:generateContent` answer, or one stream chunk). */
export function geminiResponse(text: string, model: string, usage: AnswerUsage, finished: boolean): unknown {
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ text }] },
        ...(finished ? { finishReason: "STOP" } : {}),
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: usage.inputTokens,
      cachedContentTokenCount: cachedOf(usage),
      candidatesTokenCount: usage.outputTokens,
      totalTokenCount: usage.inputTokens + usage.outputTokens,
    },
    modelVersion: model,
  };
}

/** Gemini `:streamGenerateContent?alt=sse` stream. */
export function geminiEvents(text: string, model: string, usage: AnswerUsage): SseEvent[] {
  const chunks = splitText(text);
  return chunks.map((chunk, i) => ({ data: geminiResponse(chunk, model, usage, i === chunks.length - 1) }));
}

/** A non-streamed chat completion as Ollama's OpenAI-compatible API returns it. */
export function ollamaCompletion(text: string, model: string, usage: AnswerUsage, id: string): unknown {
  return {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: "fp_ollama",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}

/** Ollama's `GET /v1/models` answer. */
export function ollamaModelList(models: string[]): unknown {
  return {
    object: "list",
    data: models.map((id) => ({ id, object: "model", created: 1760000000, owned_by: "library" })),
  };
}

/** A tool call the scripted model makes instead of answering (the shape each API uses for it). */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Anthropic: one `tool_use` block, stop reason `tool_use`. */
export function anthropicToolEvents(
  call: ToolCall,
  model: string,
  usage: AnswerUsage,
  id: string,
): SseEvent[] {
  const json = JSON.stringify(call.arguments);
  return [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
        },
      },
    },
    {
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: `toolu_${id}`, name: call.name, input: {} },
      },
    },
    {
      event: "content_block_delta",
      data: {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: json },
      },
    },
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
}

/** OpenAI Responses: one `function_call` output item. */
export function responsesToolEvents(
  call: ToolCall,
  model: string,
  usage: AnswerUsage,
  id: string,
): SseEvent[] {
  const args = JSON.stringify(call.arguments);
  const item = {
    type: "function_call",
    id: `fc_${id}`,
    call_id: `call_${id}`,
    name: call.name,
    arguments: args,
    status: "completed",
  };
  const response = (status: string, output: unknown[]) => ({
    id: `resp_${id}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
  });
  return [
    { event: "response.created", data: { type: "response.created", response: response("in_progress", []) } },
    {
      event: "response.output_item.added",
      data: {
        type: "response.output_item.added",
        output_index: 0,
        item: { ...item, arguments: "", status: "in_progress" },
      },
    },
    {
      event: "response.function_call_arguments.delta",
      data: {
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index: 0,
        delta: args,
      },
    },
    {
      event: "response.function_call_arguments.done",
      data: {
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index: 0,
        arguments: args,
      },
    },
    {
      event: "response.output_item.done",
      data: { type: "response.output_item.done", output_index: 0, item },
    },
    {
      event: "response.completed",
      data: {
        type: "response.completed",
        response: {
          ...response("completed", [item]),
          usage: {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: cachedOf(usage) },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        },
      },
    },
  ];
}

/** OpenAI Chat Completions: one `tool_calls` delta, finish reason `tool_calls`. */
export function chatToolEvents(call: ToolCall, model: string, usage: AnswerUsage, id: string): SseEvent[] {
  const base = {
    id: `chatcmpl-${id}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
  };
  return [
    {
      data: {
        ...base,
        choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }],
      },
    },
    {
      data: {
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: `call_${id}`,
                  type: "function",
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      },
    },
    { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] } },
    {
      data: {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
          prompt_tokens_details: { cached_tokens: cachedOf(usage) },
        },
      },
    },
    { data: "[DONE]" },
  ];
}

/** Gemini: one `functionCall` part (a whole answer, or the one chunk of a stream). */
export function geminiToolResponse(call: ToolCall, model: string, usage: AnswerUsage): unknown {
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ functionCall: { name: call.name, args: call.arguments } }] },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: usage.inputTokens,
      cachedContentTokenCount: cachedOf(usage),
      candidatesTokenCount: usage.outputTokens,
      totalTokenCount: usage.inputTokens + usage.outputTokens,
    },
    modelVersion: model,
  };
}
