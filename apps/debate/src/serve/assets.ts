// The page's one stylesheet and one script, served by the app itself (the CSP allows no inline code).

export const SERVE_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; }
main { max-width: 70rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #ddd; overflow-wrap: anywhere; }
thead th { background: #f2f2f2; }
a { color: #0b4f9c; }
.scroll { overflow-x: auto; }
.live { color: #555; font-size: .9rem; }
.controls { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
form.inline { display: inline; }
button { font: inherit; padding: .3rem .8rem; border: 1px solid #0b4f9c; background: #0b4f9c; color: #fff; border-radius: 4px; cursor: pointer; }
textarea { width: 100%; font: 14px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.prompt { white-space: pre-wrap; background: #f6f6f6; padding: .75rem; max-height: 24rem; overflow: auto; font-size: .85rem; }
.ask { border: 2px solid #0b4f9c; border-radius: 6px; padding: .25rem 1rem 1rem; margin-top: 1rem; }
.errors, .notice { border: 2px solid #8a1c1c; background: #fdecea; color: #5f1111; padding: .5rem 1rem; border-radius: 6px; }
.progress { font: 14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; padding-left: 3.5rem; max-height: 16rem; overflow: auto; }
iframe#report, iframe.loading { width: 100%; height: 70vh; border: 1px solid #ccc; margin-top: 1rem; }
/* The next frame loads out of sight until it takes the shown one's place. */
iframe.loading { position: absolute; left: -200vw; visibility: hidden; }
.stale { border: 2px solid #8a5a00; background: #fff6e0; color: #4a3000; padding: .5rem 1rem; border-radius: 6px; }
#send-status:empty { display: none; }
`;

export const SERVE_JS = `"use strict";
(() => {
  const body = document.body;
  const page = body.dataset.page;
  const id = body.dataset.id;
  // Every address of this server lies under its secret prefix (the token's cookie is sent there only).
  const root = body.dataset.base;
  const events = new EventSource(root + "/events");
  // For whoever drives the page (a test, a script): the live stream is open, changes now show.
  events.addEventListener("open", () => { body.dataset.live = "open"; });
  events.addEventListener("error", () => { body.dataset.live = "closed"; });

  // A frame (the report, the leaderboard) is never reloaded in sight: the next one loads hidden
  // beside it and takes its place once loaded, so the page never shows a blank frame. One load at
  // a time; a stream of changes loads only the latest.
  let loading = false;
  let nextSrc;
  function reload(src) {
    const shown = document.getElementById("report");
    if (!shown) return;
    if (loading) { nextSrc = src; return; }
    loading = true;
    const next = shown.cloneNode(false);
    next.removeAttribute("id");
    next.className = "loading";
    next.addEventListener("load", () => {
      // The old one goes and the new one stays where it loaded: a frame moved in the page reloads.
      document.getElementById("report").remove();
      next.id = "report";
      next.className = "";
      loading = false;
      if (nextSrc) { const again = nextSrc; nextSrc = undefined; reload(again); }
    }, { once: true });
    next.src = src;
    shown.after(next);
  }

  // The panel is the person's while they work in it: a field with focus or typed in, a message they
  // have not acted on, a form being sent. It is then left as it is, and a line says the debate moved on.
  const fields = (root) => [...root.querySelectorAll("textarea, input:not([type=hidden]), select")];
  const dirty = (f) =>
    f.type === "radio" || f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue;
  function held(panel) {
    return (
      panel.getAttribute("aria-busy") === "true" ||
      !!panel.querySelector(".errors, .notice, .kept") ||
      fields(panel).some((f) => f === document.activeElement || dirty(f))
    );
  }
  const normal = (html) => { const t = document.createElement("template"); t.innerHTML = html; return t.innerHTML; };
  const fieldKey = (f) => (f.form ? f.form.getAttribute("action") : "") + " " + f.name + (f.type === "radio" ? "=" + f.value : "");
  // Puts the server's panel in, keeping what the person typed in every form but \`sent\`.
  function swapPanel(html, sent) {
    const panel = document.getElementById("panel");
    const typed = new Map(fields(panel).filter((f) => f.form !== sent && dirty(f)).map((f) => [fieldKey(f), f]));
    panel.innerHTML = html;
    for (const f of fields(panel)) {
      const old = typed.get(fieldKey(f));
      if (!old) continue;
      if (f.type === "radio" || f.type === "checkbox") f.checked = old.checked;
      else f.value = old.value;
    }
    document.getElementById("stale").hidden = true;
  }
  // A form of the panel is sent by the page: the person stays where they are, and the server's
  // answer (the new state, or the problems with their text kept) replaces the panel. When the
  // server cannot be reached, nothing of the form is touched.
  async function sendForm(form) {
    const panel = document.getElementById("panel");
    const status = document.getElementById("send-status");
    panel.setAttribute("aria-busy", "true");
    status.textContent = "";
    try {
      const res = await fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) });
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const next = doc.getElementById("panel");
      if (next) {
        swapPanel(next.innerHTML, form);
        const facts = doc.getElementById("facts");
        if (facts) document.getElementById("facts").textContent = facts.textContent;
      } else status.textContent = "Not sent (" + res.status + "): " + doc.body.textContent.trim() + " What you typed is kept.";
    } catch {
      status.textContent = "Not sent: the server did not answer (is debate serve still running?). What you typed is kept; send it again.";
    } finally {
      panel.removeAttribute("aria-busy");
    }
  }
  document.getElementById("panel")?.addEventListener("submit", (e) => {
    e.preventDefault();
    if (document.getElementById("panel").getAttribute("aria-busy") !== "true") sendForm(e.target);
  });

  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      if (page === "list") {
        const res = await fetch(root + "/rows");
        if (res.ok) document.getElementById("rows").innerHTML = await res.text();
        const tournaments = document.getElementById("tournaments");
        const t = tournaments && (await fetch(root + "/tournament-rows"));
        if (t && t.ok) tournaments.innerHTML = await t.text();
      } else if (page === "tournament") {
        const base = root + "/t/" + encodeURIComponent(id);
        const facts = await fetch(base + "/facts");
        if (facts.ok) document.getElementById("facts").textContent = await facts.text();
        reload(base + "/leaderboard?t=" + Date.now());
      } else if (page === "debate") {
        const base = root + "/d/" + encodeURIComponent(id);
        const facts = await fetch(base + "/facts");
        if (facts.ok) document.getElementById("facts").textContent = await facts.text();
        const res = await fetch(base + "/panel");
        const html = res.ok ? await res.text() : undefined;
        const panel = document.getElementById("panel");
        // Only a panel that changed is put in (a click must not land on a form being swapped for
        // its twin), and only if the person is not working in it: asked now that it has arrived.
        if (html !== undefined && normal(html) !== panel.innerHTML) {
          if (held(panel)) document.getElementById("stale").hidden = false;
          else swapPanel(html);
        }
        const log = await fetch(base + "/progress");
        if (log.ok) {
          const list = document.getElementById("progress");
          list.innerHTML = await log.text();
          tick();
          list.scrollTop = list.scrollHeight;
        }
        reload(base + "/report?t=" + Date.now());
      }
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  // On (re)connecting, catch up with whatever changed while no stream was open.
  events.addEventListener("hello", () => refresh());
  events.addEventListener("changed", (e) => {
    const ids = JSON.parse(e.data);
    if (page === "list" || ids.includes(id)) refresh();
  });
  // Each seat still at work shows how long it has been asked: a clock on its start line, from the
  // time the server printed it, until a later line says it answered or was asked again.
  function tick() {
    const items = [...document.querySelectorAll("#progress li[data-started]")];
    for (const item of items) {
      const role = item.dataset.started;
      let done = false;
      for (let next = item.nextElementSibling; next && !done; next = next.nextElementSibling)
        done = next.dataset.finished === role || next.dataset.started === role || next.dataset.ended === "1";
      let clock = item.querySelector(".clock");
      if (done) { clock?.remove(); continue; }
      if (!clock) {
        clock = document.createElement("span");
        clock.className = "clock";
        item.append(clock);
      }
      clock.textContent = " · " + Math.max(0, Math.floor((Date.now() - Number(item.dataset.at)) / 1000)) + " s";
    }
  }
  // Four times a second: the shown second turns when it does, not up to a second late.
  setInterval(tick, 250);
  events.addEventListener("run", (e) => {
    const msg = JSON.parse(e.data);
    if (page !== "debate" || msg.id !== id) return;
    const list = document.getElementById("progress");
    const last = list.lastElementChild;
    if (last && Number(last.dataset.seq) >= msg.seq) return;
    const item = document.createElement("li");
    item.dataset.seq = String(msg.seq);
    item.dataset.at = String(msg.at);
    if (msg.started) item.dataset.started = msg.started;
    if (msg.finished) item.dataset.finished = msg.finished;
    if (msg.ended) item.dataset.ended = "1";
    item.textContent = msg.line;
    list.append(item);
    tick();
    list.scrollTop = list.scrollHeight;
  });
})();
`;
