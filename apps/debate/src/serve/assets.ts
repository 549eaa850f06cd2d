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
iframe#report { width: 100%; height: 70vh; border: 1px solid #ccc; margin-top: 1rem; }
`;

export const SERVE_JS = `"use strict";
(() => {
  const body = document.body;
  const page = body.dataset.page;
  const id = body.dataset.id;
  const events = new EventSource("/events");
  // A frame (the report, the leaderboard) is reloaded once its last load finished, never mid-load:
  // a stream of changes would otherwise keep it blank.
  const frame = document.getElementById("report");
  let loading = false;
  let nextSrc;
  function reload(src) {
    if (loading) { nextSrc = src; return; }
    loading = true;
    frame.src = src;
  }
  frame?.addEventListener("load", () => {
    loading = false;
    if (nextSrc) { const src = nextSrc; nextSrc = undefined; reload(src); }
  });
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      if (page === "list") {
        const res = await fetch("/rows");
        if (res.ok) document.getElementById("rows").innerHTML = await res.text();
        const tournaments = document.getElementById("tournaments");
        const t = tournaments && (await fetch("/tournament-rows"));
        if (t && t.ok) tournaments.innerHTML = await t.text();
      } else if (page === "tournament") {
        const base = "/t/" + encodeURIComponent(id);
        const facts = await fetch(base + "/facts");
        if (facts.ok) document.getElementById("facts").textContent = await facts.text();
        reload(base + "/leaderboard?t=" + Date.now());
      } else if (page === "debate") {
        const base = "/d/" + encodeURIComponent(id);
        const facts = await fetch(base + "/facts");
        if (facts.ok) document.getElementById("facts").textContent = await facts.text();
        // A form being typed into, or a message the person has not acted on (the problems of an
        // answer, a refused edit), is never replaced under their hands.
        // Asked again once the new panel has arrived: the person may have started meanwhile.
        const panel = document.getElementById("panel");
        const untouched = () =>
          !panel.querySelector(".errors, .notice") &&
          [...panel.querySelectorAll("textarea, input:not([type=hidden])")].every((f) =>
            f.type === "radio" ? f.checked === f.defaultChecked : f.value === f.defaultValue,
          );
        if (untouched()) {
          const res = await fetch(base + "/panel");
          const html = res.ok ? await res.text() : undefined;
          if (html !== undefined && untouched()) panel.innerHTML = html;
        }
        const log = await fetch(base + "/progress");
        if (log.ok) {
          const list = document.getElementById("progress");
          list.innerHTML = await log.text();
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
  const ticking = new Map();
  events.addEventListener("run", (e) => {
    const msg = JSON.parse(e.data);
    if (page !== "debate" || msg.id !== id) return;
    const list = document.getElementById("progress");
    const last = list.lastElementChild;
    if (last && Number(last.dataset.seq) >= msg.seq) return;
    const item = document.createElement("li");
    item.dataset.seq = String(msg.seq);
    item.textContent = msg.line;
    if (msg.started) {
      const clock = document.createElement("span");
      const since = Date.now();
      item.append(" · ", clock);
      const tick = () => { clock.textContent = ((Date.now() - since) / 1000).toFixed(0) + " s"; };
      tick();
      clearInterval(ticking.get(msg.started));
      ticking.set(msg.started, setInterval(tick, 1000));
    }
    if (msg.finished) { clearInterval(ticking.get(msg.finished)); ticking.delete(msg.finished); }
    list.append(item);
    list.scrollTop = list.scrollHeight;
  });
})();
`;
