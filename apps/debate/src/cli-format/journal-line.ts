import { journalOutcome } from "@debatekit/core";
import { journalFileName } from "@debatekit/files";
import { escapeTerminal } from "@debatekit/report/escape";
import type { JournalEntry } from "@debatekit/schema";

// Apart from the commands, which every start of `debate` loads: this needs files and report.

function block(title: string, text: string): string {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `--- ${title} ---\n${body}`;
}

/**
 * One journaled call as a person reads it: what was sent, what came back, what was made of it,
 * headed by its step in the format's unit (`exchange 2`, `round 2`). Control characters are shown
 * escaped: a model's answer cannot retitle or clear the terminal.
 */
export function formatJournalEntry(entry: JournalEntry, unit = "exchange"): string {
  const r = entry.result;
  const head = [
    `${unit} ${entry.exchange}`,
    entry.phase,
    entry.role,
    `attempt ${entry.attempt}`,
    `${entry.adapter ?? "?"}${entry.model ? ` ${entry.model}` : ""}`,
    // A refused answer is headed as such, not `ok` above its `--- rejected ---` block.
    journalOutcome(entry),
    `${((r.durationMs ?? 0) / 1000).toFixed(1)}s`,
  ].join(" · ");
  const parts = [`=== ${head} (.debate/journal/${journalFileName(entry)})\n`];
  parts.push(
    entry.prompt !== undefined
      ? block(
          `sent${entry.prompt_truncated ? " (cut: the journal keeps its first 262144 characters)" : ""}`,
          entry.prompt,
        )
      : block("sent", `(not kept: journaled before prompts were; sha256 ${entry.prompt_sha256})`),
  );
  // The program's own output when the adapter kept it (sanitized), else the answer it read from it.
  if (entry.raw?.stdout)
    parts.push(block(`received (raw stdout${entry.raw.truncated ? ", cut" : ""})`, entry.raw.stdout));
  else parts.push(block("received", r.text || "(nothing)"));
  if (entry.raw?.stderr) parts.push(block("stderr", entry.raw.stderr));
  if (r.error) parts.push(block("error", r.error));
  if (entry.validation?.ok === false)
    parts.push(block("rejected", (entry.validation.errors ?? ["invalid answer"]).join("\n")));
  // An accepted answer's entry is not rewritten: an `ok` result without `validation` is the answer
  // its step uses (older entries carry `validation: { ok: true }`).
  else if (entry.validation?.ok || (r.status === "ok" && !entry.validation)) parts.push("--- accepted ---\n");
  return escapeTerminal(parts.join(""));
}
