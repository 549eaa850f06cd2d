import { journalFileName, readJournal, readJournalPrompts } from "@debatekit/files";
import { escapeTerminal } from "@debatekit/report";
import type { JournalEntry } from "@debatekit/schema";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { CliIO } from "../output.js";
import { debateFolderOf } from "./run.js";

/** Which calls `--step` picks: an exchange (crossfire: round), optionally one seat and one attempt. */
export interface StepFilter {
  exchange: number;
  role?: string;
  attempt?: number;
}

/** Commander parser for `--step 2`, `--step 2:judge`, `--step 2:judge:3`. */
export function parseStep(value: string): StepFilter {
  const match = /^(\d{1,4})(?::([a-z][a-z0-9_]*))?(?::(\d{1,3}))?$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(
      `expected <exchange>[:<seat>[:<attempt>]] such as 2 or 2:judge, got ${JSON.stringify(value)}`,
    );
  return {
    exchange: Number(match[1]),
    ...(match[2] ? { role: match[2] } : {}),
    ...(match[3] ? { attempt: Number(match[3]) } : {}),
  };
}

function picks(filter: StepFilter | undefined, entry: JournalEntry): boolean {
  if (!filter) return true;
  return (
    entry.exchange === filter.exchange &&
    (filter.role === undefined || entry.role === filter.role) &&
    (filter.attempt === undefined || entry.attempt === filter.attempt)
  );
}

function block(title: string, text: string): string {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `--- ${title} ---\n${body}`;
}

/**
 * One journaled call as a person reads it: what was sent, what came back, what was made of it.
 * Control characters are shown escaped: a model's answer cannot retitle or clear the terminal.
 */
export function formatJournalEntry(entry: JournalEntry): string {
  const r = entry.result;
  const head = [
    `exchange ${entry.exchange}`,
    entry.phase,
    entry.role,
    `attempt ${entry.attempt}`,
    `${entry.adapter ?? "?"}${entry.model ? ` ${entry.model}` : ""}`,
    r.status,
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

/** `debate log <dir> [--step …]`: what was sent to each seat and what came back, from the journal. */
export function registerLog(program: Command, io: CliIO): void {
  program
    .command("log")
    .description("show what was sent to each seat and what came back (from the journal)")
    .argument("<dir>", "the debate folder (holds debate.md)")
    .option(
      "--step <exchange[:seat[:attempt]]>",
      "only this exchange (crossfire: round), seat and attempt",
      parseStep,
    )
    .option("--json", "print the journal entries as JSON")
    .addHelpText(
      "after",
      `
Secrets are redacted before anything is journaled; a very long prompt is kept cut.

Examples:
  $ debate log debates/tests-first                 # every call, in order
  $ debate log debates/tests-first --step 2:judge  # the judge's calls of exchange 2
  $ debate log debates/tests-first --step 0 --json`,
    )
    .action(async (dirArg: string, opts: { step?: StepFilter; json?: boolean }) => {
      const dir = await debateFolderOf(io, dirArg);
      const picked = (await readJournal(dir)).filter((e) => picks(opts.step, e));
      // A prompt kept as its end only (`prompt_base`) is shown whole, as it was sent.
      const prompts = await readJournalPrompts(dir, picked);
      const entries = picked.map((entry, i) => {
        const { prompt_base: _, ...rest } = entry;
        const prompt = prompts[i];
        return prompt === undefined ? rest : { ...rest, prompt };
      });
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
      }
      if (entries.length === 0) {
        io.stderr.write(
          `no calls journaled${opts.step ? " for that step" : ""} in ${dirArg} (a debate's calls are journaled once it runs)\n`,
        );
        return;
      }
      io.stdout.write(entries.map(formatJournalEntry).join("\n"));
    });
}
