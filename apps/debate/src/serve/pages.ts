import { escapeHtml as h } from "@debatekit/report/escape";
import type { StatusRow } from "../actions/status.js";

/** What the page of one debate shows beside its report: what it waits for, and the forms to answer. */
export interface DebatePanel {
  /** A manual seat's prompt waiting for its answer (`inbox/<stem>.md`). */
  asks: Array<{ stem: string; role: string; prompt: string; errors?: string[]; draft?: string }>;
  /** A review waiting for its decision: the choices, and what the judge recommends. */
  decision?: { choices: Array<{ key: string; label: string }>; recommended?: string; reasons: string[] };
  /**
   * The debate's length field, when the format has one: its name and value, the largest allowed, and
   * the value the person sent when it was refused (kept in the field for them).
   */
  length?: { key: string; unit: string; value: number; max: number; draft?: string };
  /** An answer that was not written because the seat was answered meanwhile: the person's text, kept. */
  kept?: { stem: string; text: string; reason: string };
  paused: boolean;
  running: boolean;
  /** A problem with the last request, for the person (a refused edit, a held lock). */
  notice?: string;
}

/** Our page around `body`: one stylesheet and one script, both from this server (the CSP allows nothing else). */
export function layout(
  title: string,
  body: string,
  data: { page: string; id?: string; csrf: string; base: string },
): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(title)}</title>`,
    `<link rel="stylesheet" href="${h(data.base)}/static/serve.css">`,
    // Under the prefix too: a browser's own /favicon.ico would be answered 404 (outside it).
    `<link rel="icon" href="${h(data.base)}/favicon.ico">`,
    "</head>",
    `<body data-page="${h(data.page)}"${data.id ? ` data-id="${h(data.id)}"` : ""} data-csrf="${h(data.csrf)}" data-base="${h(data.base)}">`,
    body,
    `<script src="${h(data.base)}/static/serve.js"></script>`,
    "</body>",
    "</html>",
  ].join("\n");
}

function standingOf(r: StatusRow): string {
  if (r.winner) return r.winner === "tie" ? "tie" : `${r.winner} wins`;
  if (r.sides) return `${r.sides.proposition} / ${r.sides.opposition}`;
  return "-";
}

function progressOf(r: StatusRow): string {
  if (r.exchange === undefined) return "-";
  return r.exchanges === undefined ? String(r.exchange) : `${r.exchange}/${r.exchanges}`;
}

/** The rows of the debate list: the same facts `debate status` prints, one row per debate. */
export function listRows(base: string, rows: ReadonlyArray<{ id: string; row: StatusRow }>): string {
  if (rows.length === 0) return '<tr><td colspan="7">No debate folder here yet.</td></tr>';
  return rows
    .map(
      ({ id, row: r }) =>
        `<tr data-debate="${h(id)}"><th scope="row"><a href="${h(base)}/d/${encodeURIComponent(id)}">${h(id)}</a></th><td>${h(r.format ?? "-")}</td><td>${h(r.phase ?? "-")}</td><td>${h(progressOf(r))}</td><td>${h(standingOf(r))}</td><td>${h(r.activity ?? "-")}</td><td>${h(r.last_error ?? "-")}</td></tr>`,
    )
    .join("\n");
}

/** Where a tournament stands, as `debate tournament status` counts it. */
export interface TournamentFacts {
  status: string;
  total: number;
  done: number;
  failed: number;
  running: number;
  pending: number;
}

/** One line of a tournament's progress. */
export function tournamentLine(t: TournamentFacts): string {
  return `${t.status} · ${t.done}/${t.total} debates done · ${t.running} running · ${t.failed} failed · ${t.pending} not started`;
}

/** The rows of the tournament list. */
export function tournamentRows(
  base: string,
  rows: ReadonlyArray<{ id: string; facts: TournamentFacts }>,
): string {
  return rows
    .map(
      ({ id, facts }) =>
        `<tr data-tournament="${h(id)}"><th scope="row"><a href="${h(base)}/t/${encodeURIComponent(id)}">${h(id)}</a></th><td>${h(tournamentLine(facts))}</td></tr>`,
    )
    .join("\n");
}

/** The page listing every debate (and tournament), updated live. */
export function listPage(
  base: string,
  rows: ReadonlyArray<{ id: string; row: StatusRow }>,
  csrf: string,
  tournaments: ReadonlyArray<{ id: string; facts: TournamentFacts }> = [],
): string {
  const body = `<main>
<h1>Debates</h1>
<p class="live" id="live" role="status">Live: the list follows the folders as they change.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Debates"><table>
<thead><tr><th scope="col">debate</th><th scope="col">format</th><th scope="col">phase</th><th scope="col">progress</th><th scope="col">standing</th><th scope="col">waiting on</th><th scope="col">last error</th></tr></thead>
<tbody id="rows">
${listRows(base, rows)}
</tbody></table></div>
${
  tournaments.length
    ? `<h2>Tournaments</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Tournaments"><table>
<thead><tr><th scope="col">tournament</th><th scope="col">progress</th></tr></thead>
<tbody id="tournaments">
${tournamentRows(base, tournaments)}
</tbody></table></div>`
    : ""
}
</main>`;
  return layout("Debates", body, { page: "list", csrf, base });
}

function hidden(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${h(csrf)}">`;
}

function button(base: string, id: string, action: string, label: string, csrf: string, extra = ""): string {
  return `<form method="post" action="${h(base)}/d/${encodeURIComponent(id)}/${action}" class="inline">${hidden(csrf)}${extra}<button type="submit">${h(label)}</button></form>`;
}

/** The forms of a debate page: answer a manual seat, decide a review, run, stop, pause, resume, lengthen. */
export function panelHtml(base: string, id: string, panel: DebatePanel, csrf: string): string {
  const parts: string[] = [];
  if (panel.notice) parts.push(`<p class="notice" role="alert">${h(panel.notice)}</p>`);
  const controls = [
    panel.running ? button(base, id, "stop", "Stop the run", csrf) : button(base, id, "run", "Run", csrf),
    panel.paused ? button(base, id, "resume", "Resume", csrf) : button(base, id, "pause", "Pause", csrf),
  ];
  if (panel.length)
    controls.push(
      `<form method="post" action="${h(base)}/d/${encodeURIComponent(id)}/length" class="inline">${hidden(csrf)}<input type="hidden" name="shown" value="${panel.length.value}"><label>${h(panel.length.unit)} <input type="number" name="value" min="1" max="${panel.length.max}" value="${h(panel.length.draft ?? String(panel.length.value))}" required></label> <button type="submit">Set</button></form>`,
    );
  parts.push(`<div class="controls">${controls.join(" ")}</div>`);
  for (const ask of panel.asks) {
    const errors = ask.errors?.length
      ? `<div class="errors" role="alert"><p>Not written: the answer breaks ${ask.errors.length === 1 ? "a rule" : `${ask.errors.length} rules`}. Fix them all, then send it again.</p><ul>${ask.errors.map((e) => `<li>${h(e)}</li>`).join("")}</ul></div>`
      : "";
    parts.push(`<section class="ask" aria-labelledby="ask-${h(ask.stem)}">
<h2 id="ask-${h(ask.stem)}">Your turn: ${h(ask.role)}</h2>
<details open><summary>The prompt (prompts/${h(ask.stem)}.md)</summary><pre class="prompt" tabindex="0">${h(ask.prompt)}</pre></details>
${errors}<form method="post" action="${h(base)}/d/${encodeURIComponent(id)}/answer">${hidden(csrf)}<input type="hidden" name="stem" value="${h(ask.stem)}">
<label for="text-${h(ask.stem)}">Your answer (written to inbox/${h(ask.stem)}.md)</label>
<textarea id="text-${h(ask.stem)}" name="text" rows="16" required>${h(ask.draft ?? "")}</textarea>
<button type="submit">Check and send</button></form>
</section>`);
  }
  if (panel.kept) {
    const stem = h(panel.kept.stem);
    parts.push(`<section class="ask kept" aria-labelledby="kept-title-${stem}">
<h2 id="kept-title-${stem}">Your answer for inbox/${stem}.md was not written</h2>
<p class="notice" role="alert">Not written: ${h(panel.kept.reason)}. Your text is kept below: copy it if you need it.</p>
<label for="kept-${stem}">Your text (not sent)</label>
<textarea id="kept-${stem}" rows="8" readonly>${h(panel.kept.text)}</textarea>
</section>`);
  }
  if (panel.decision) {
    const d = panel.decision;
    parts.push(`<section class="ask" aria-labelledby="decision-title">
<h2 id="decision-title">Your decision</h2>
${d.recommended ? `<p>The judge recommends <strong>${h(d.recommended)}</strong>.</p>` : ""}${d.reasons.length ? `<ul>${d.reasons.map((r) => `<li>${h(r)}</li>`).join("")}</ul>` : ""}
<form method="post" action="${h(base)}/d/${encodeURIComponent(id)}/decision">${hidden(csrf)}<fieldset><legend>Decision</legend>
${d.choices.map((c) => `<label><input type="radio" name="decision" value="${h(c.key)}" required${c.key === d.recommended ? " checked" : ""}> ${h(c.key)}: ${h(c.label)}</label><br>`).join("\n")}
</fieldset><button type="submit">Decide</button></form></section>`);
  }
  return parts.join("\n");
}

/** A line of a run's progress, numbered so a page that catches up shows each line once. */
export interface ProgressLine {
  seq: number;
  line: string;
  /** When it was printed (ms since 1970): a seat's clock counts from its start line's. */
  at: number;
  /** The seat this line says was asked, or answered: the page counts its time in between. */
  started?: string;
  finished?: string;
  /** The run's last line: every seat's clock stops there. */
  ended?: boolean;
}

/** The items of the progress list; the page's script keeps a clock on each seat still at work. */
export function progressItems(lines: readonly ProgressLine[]): string {
  return lines
    .map(
      (l) =>
        `<li data-seq="${l.seq}" data-at="${l.at}"${l.started ? ` data-started="${h(l.started)}"` : ""}${l.finished ? ` data-finished="${h(l.finished)}"` : ""}${l.ended ? ' data-ended="1"' : ""}>${h(l.line)}</li>`,
    )
    .join("");
}

/** The page of one debate: its facts, its forms, the live progress of a run, and its report growing. */
export function debatePage(
  base: string,
  id: string,
  row: StatusRow,
  panel: DebatePanel,
  csrf: string,
  progress: readonly ProgressLine[] = [],
): string {
  const body = `<main>
<p><a href="${h(base)}/">All debates</a></p>
<h1>${h(id)}</h1>
<p id="facts">${h(row.format ?? "-")} · ${h(row.phase ?? "-")} · ${h(progressOf(row))} · ${h(standingOf(row))}${row.last_error ? ` · last error: ${h(row.last_error)}` : ""}</p>
<p id="stale" class="stale" role="status" hidden>The debate moved on while you were working in the form below; what you typed is kept. Send it, or reload the page to see the new state.</p>
<p id="send-status" class="notice" role="alert"></p>
<div id="panel">${panelHtml(base, id, panel, csrf)}</div>
<section aria-labelledby="progress-title"><h2 id="progress-title">Live progress</h2><ol id="progress" class="progress" aria-live="polite" tabindex="0">${progressItems(progress)}</ol></section>
<iframe id="report" title="The debate so far (its report)" src="${h(base)}/d/${encodeURIComponent(id)}/report"></iframe>
</main>`;
  return layout(id, body, { page: "debate", id, csrf, base });
}

/** The page of one tournament: its progress, and its leaderboard as it forms (the tournament's own renderer). */
export function tournamentPage(base: string, id: string, facts: TournamentFacts, csrf: string): string {
  const body = `<main>
<p><a href="${h(base)}/">All debates</a></p>
<h1>Tournament ${h(id)}</h1>
<p id="facts" role="status">${h(tournamentLine(facts))}</p>
<iframe id="report" title="The leaderboard so far" src="${h(base)}/t/${encodeURIComponent(id)}/leaderboard"></iframe>
</main>`;
  return layout(`Tournament ${id}`, body, { page: "tournament", id, csrf, base });
}

/** The page shown for a refused request (no token, a foreign host, no such debate). */
export function refusedPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body><p>${h(message)}</p></body></html>`;
}
