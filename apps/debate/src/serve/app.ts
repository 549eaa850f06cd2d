import type { DebateState } from "@debatekit/core";
import type { RunEvent } from "@debatekit/runner";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { debateStatus } from "../actions/status.js";
import { answeredAsks, unansweredAsks } from "../manual-asks.js";
import { createProgress } from "../progress.js";
import { SERVE_CSS, SERVE_JS } from "./assets.js";
import { findServedDebates, findServedTournaments, type ServedDebate } from "./debates.js";
import {
  type DebatePanel,
  debatePage,
  listPage,
  listRows,
  type ProgressLine,
  panelHtml,
  progressItems,
  refusedPage,
  type TournamentFacts,
  tournamentLine,
  tournamentPage,
  tournamentRows,
} from "./pages.js";
import {
  isLoopbackHost,
  MAX_BODY_BYTES,
  PAGE_CSP,
  REPORT_CSP,
  type ServeSecrets,
  sameOriginPath,
  sameSecret,
  servePrefix,
  tokenCookie,
} from "./security.js";
import { writeNewFile } from "./write-new-file.js";

// The engine loads when a page needs it, as every command does.
const engine = () =>
  Promise.all([import("@debatekit/core"), import("@debatekit/files"), import("@debatekit/runner")]);

/** What the app serves and with what rights. */
export interface ServeAppOptions {
  /** The folders whose debates are shown (a debate folder, or a folder of them). */
  roots: readonly string[];
  secrets: ServeSecrets;
  /** The port the server listens on (the Host header must name it). */
  port: () => number;
  /** The environment runs started from the page give their seats. */
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** One listener of the live stream: an SSE event name and its JSON data. */
type Listener = (event: string, data: string) => void;

/** The app, and what the file watcher and the runs call to reach every open page. */
export interface ServeApp {
  app: Hono;
  /** Tells every page that these debates' files changed. */
  changed(ids: readonly string[]): void;
  /** Every run started from a page, stopped (as Ctrl-C would: it resumes later). */
  stopRuns(): Promise<void>;
  /** The debates and the tournaments served (a watcher maps a changed path to their ids). */
  debates(): Promise<ServedDebate[]>;
}

const LOOPBACK_ONLY = "refused: this server answers only requests addressed to 127.0.0.1 or localhost";
const ANSWERED_FIRST =
  "another page or an editor answered this seat first; that answer stands and is not changed";
const NO_TOKEN = "refused: open the URL `debate serve` printed (it carries the token)";

export function createServeApp(options: ServeAppOptions): ServeApp {
  const { secrets } = options;
  const listeners = new Set<Listener>();
  const runs = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** The last progress lines of each debate's runs (numbered), shown by a page opened or reconnected meanwhile. */
  const logs = new Map<string, ProgressLine[]>();
  let seq = 0;
  const broadcast: Listener = (event, data) => {
    for (const listener of listeners) listener(event, data);
  };
  const debates = () => findServedDebates(options.roots);
  const tournaments = () => findServedTournaments(options.roots);
  const app = new Hono();
  /** The secret path every page lies under; the routes below are registered under it. */
  const base = servePrefix(secrets);
  const routes = app.basePath(base);

  // Every response: no sniffing, no referrer, nothing cached, our CSP unless a route set its own.
  app.use(async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on our own form posts.
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
    if (!c.res.headers.get("Content-Security-Policy")) {
      c.header("Content-Security-Policy", PAGE_CSP);
      c.header("X-Frame-Options", "DENY");
    }
  });

  // A path outside the secret prefix (another server's page guessing, a stale bookmark): 404, nothing more said.
  app.use(async (c, next) => {
    if (c.req.path !== base && !c.req.path.startsWith(`${base}/`))
      return c.html(refusedPage(404, "not found"), 404);
    return next();
  });

  // A foreign Host (DNS rebinding), then a missing or wrong token: refused before anything is read.
  app.use(async (c, next) => {
    if (!isLoopbackHost(c.req.header("host"), options.port()))
      return c.html(refusedPage(403, LOOPBACK_ONLY), 403);
    const fromUrl = c.req.query("token");
    if (fromUrl !== undefined) {
      if (!sameSecret(fromUrl, secrets.token)) return c.html(refusedPage(403, NO_TOKEN), 403);
      // The token moves into a cookie only this server's secret path gets, and out of the address bar and history.
      setCookie(c, tokenCookie(options.port()), secrets.token, {
        httpOnly: true,
        sameSite: "Strict",
        path: base,
      });
      return c.redirect(sameOriginPath(c.req.path), 303);
    }
    if (!sameSecret(getCookie(c, tokenCookie(options.port())), secrets.token))
      return c.html(refusedPage(403, NO_TOKEN), 403);
    return next();
  });

  // A body over the limit is refused as it is read: no more of it is kept (a declared length over it, at once).
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.html(refusedPage(413, `refused: the request is over ${MAX_BODY_BYTES} bytes`), 413),
    }),
  );

  // A request that changes something carries the page's CSRF token and comes from this origin.
  app.use(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== `http://${c.req.header("host")}`)
      return c.html(refusedPage(403, "refused: the request comes from another site"), 403);
    const form = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const given = c.req.header("x-csrf-token") ?? (typeof form.csrf === "string" ? form.csrf : undefined);
    if (!sameSecret(given, secrets.csrf))
      return c.html(
        refusedPage(403, "refused: the page's form token is missing or stale; reload the page"),
        403,
      );
    c.set("form" as never, form as never);
    return next();
  });

  // What no route expected (a folder that does not read, a file that vanished): one line, never a
  // stack; a path the files package refuses (a symbolic link out of the folder) is the request's fault.
  app.onError((error, c) => {
    const line = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
    const status = (error as { code?: unknown }).code === "PATH_ESCAPE" ? 403 : 500;
    if (status === 500) process.stderr.write(`debate serve: ${c.req.method} ${c.req.path}: ${line}\n`);
    return c.html(refusedPage(status, `${status === 403 ? "refused" : "failed"}: ${line}`), status);
  });

  routes.get("/favicon.ico", (c) => c.body(null, 204));
  routes.get("/static/serve.css", (c) =>
    c.body(SERVE_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }),
  );
  routes.get("/static/serve.js", (c) =>
    c.body(SERVE_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
  );

  const rowsOf = async () =>
    Promise.all((await debates()).map(async (d) => ({ id: d.id, row: await debateStatus(d.dir) })));

  const tournamentFacts = async (t: ServedDebate): Promise<TournamentFacts> => {
    const { tournamentStatus } = await import("../actions/tournament.js");
    // A broken tournament.md is shown as such; it does not take the list down.
    return tournamentStatus({ cwd: options.cwd }, { dir: t.dir }).catch((error: unknown) => ({
      status: `unreadable: ${error instanceof Error ? error.message : String(error)}`,
      ...{ total: 0, done: 0, failed: 0, running: 0, pending: 0 },
    }));
  };
  const tournamentRowsOf = async () =>
    Promise.all((await tournaments()).map(async (t) => ({ id: t.id, facts: await tournamentFacts(t) })));

  // The list, at the prefix with its slash (the printed URL) and without it.
  app.get(`${base}/`, async (c) =>
    c.html(listPage(base, await rowsOf(), secrets.csrf, await tournamentRowsOf())),
  );
  routes.get("/", (c) => c.redirect(`${base}/`, 303));
  routes.get("/rows", async (c) => c.html(listRows(base, await rowsOf())));
  routes.get("/tournament-rows", async (c) => c.html(tournamentRows(base, await tournamentRowsOf())));

  /** The tournament an URL's id names; never a path from the request. */
  const tournamentOf = async (c: Context): Promise<ServedDebate | undefined> =>
    (await tournaments()).find((t) => t.id === c.req.param("id"));
  routes.get("/t/:id", async (c) => {
    const t = await tournamentOf(c);
    if (!t) return c.html(refusedPage(404, "no such tournament here"), 404);
    return c.html(tournamentPage(base, t.id, await tournamentFacts(t), secrets.csrf));
  });
  routes.get("/t/:id/facts", async (c) => {
    const t = await tournamentOf(c);
    if (!t) return c.html(refusedPage(404, "no such tournament here"), 404);
    return c.text(tournamentLine(await tournamentFacts(t)));
  });
  /** The last leaderboard of each tournament, by the results it was computed from (its bootstrap is costly). */
  const boards = new Map<string, { results: string; html: string }>();
  // The leaderboard of the results so far, computed when they changed and written nowhere.
  routes.get("/t/:id/leaderboard", async (c) => {
    const t = await tournamentOf(c);
    if (!t) return c.html(refusedPage(404, "no such tournament here"), 404);
    const { readTournament, readResults, computeLeaderboard, renderLeaderboardHtml } = await import(
      "@debatekit/tournament"
    );
    const tournament = await readTournament(t.dir);
    const results = await readResults(tournament);
    const key = JSON.stringify([tournament.frontmatter, results]);
    let html = boards.get(t.dir)?.results === key ? boards.get(t.dir)?.html : undefined;
    if (html === undefined) {
      html = renderLeaderboardHtml(computeLeaderboard(tournament.frontmatter, results));
      boards.set(t.dir, { results: key, html });
    }
    c.header("Content-Security-Policy", REPORT_CSP);
    c.header("X-Frame-Options", "SAMEORIGIN");
    return c.html(html);
  });

  routes.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      const queue: Array<{ event: string; data: string }> = [];
      let wake: (() => void) | undefined;
      const listener: Listener = (event, data) => {
        queue.push({ event, data });
        wake?.();
      };
      listeners.add(listener);
      stream.onAbort(() => {
        listeners.delete(listener);
        wake?.();
      });
      await stream.writeSSE({ event: "hello", data: "{}" });
      while (!stream.aborted) {
        const next = queue.shift();
        if (next) await stream.writeSSE(next);
        else
          await new Promise<void>((resolve) => {
            wake = resolve;
            // A comment line now and then keeps proxies and the browser from closing an idle stream.
            setTimeout(resolve, 15_000).unref();
          }).then(() => (queue.length === 0 && !stream.aborted ? stream.write(": idle\n\n") : undefined));
      }
    }),
  );

  /** The debate an URL's id names; never a path from the request. */
  const debateOf = async (c: Context): Promise<ServedDebate | undefined> =>
    (await debates()).find((d) => d.id === c.req.param("id"));
  const notFound = (c: Context) => c.html(refusedPage(404, "no such debate here"), 404);

  const readState = async (dir: string): Promise<DebateState | undefined> => {
    const [, { readDebateFolder }] = await engine();
    const read = await readDebateFolder(dir);
    return read.ok ? read.value.state : undefined;
  };

  /** The forms of a debate's page, with the prompts it waits on. */
  const panelOf = async (debate: ServedDebate, extra: Partial<DebatePanel> = {}): Promise<DebatePanel> => {
    const [{ formatOfState }, { readTextInside, MAX_MARKDOWN_BYTES }] = await engine();
    const state = await readState(debate.dir);
    const format = state ? formatOfState(state) : undefined;
    const asks: DebatePanel["asks"] = [];
    if (state)
      for (const ask of await unansweredAsks(debate.dir, state.frontmatter.current_exchange)) {
        const prompt = await readTextInside(debate.dir, `prompts/${ask.stem}.md`, MAX_MARKDOWN_BYTES);
        const given = extra.asks?.find((a) => a.stem === ask.stem);
        asks.push({
          ...given,
          stem: ask.stem,
          role: ask.role,
          prompt: prompt.ok ? (prompt.value ?? "") : "",
        });
      }
    // The format says what a person decides and which key holds its length; the page never guesses.
    const decision = state ? format?.awaitingDecision?.(state) : undefined;
    const length = format?.newOptions.length;
    const lengthValue =
      state && length?.key ? ({ ...state.frontmatter } as Record<string, unknown>)[length.key] : undefined;
    return {
      asks,
      ...(decision
        ? {
            decision: {
              choices: [...decision.choices],
              reasons: [...decision.reasons],
              ...(decision.recommended ? { recommended: decision.recommended } : {}),
            },
          }
        : {}),
      ...(length?.key && typeof lengthValue === "number" && format
        ? {
            length: {
              ...{ key: length.key, unit: format.unit.many, value: lengthValue, max: length.max },
              ...(extra.length?.draft !== undefined ? { draft: extra.length.draft } : {}),
            },
          }
        : {}),
      paused: state?.frontmatter.paused === true,
      running: runs.has(debate.dir),
      ...(extra.notice ? { notice: extra.notice } : {}),
      ...(extra.kept ? { kept: extra.kept } : {}),
    };
  };

  routes.get("/d/:id", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    return c.html(
      debatePage(
        base,
        debate.id,
        await debateStatus(debate.dir),
        await panelOf(debate),
        secrets.csrf,
        logs.get(debate.dir),
      ),
    );
  });
  routes.get("/d/:id/panel", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    return c.html(panelHtml(base, debate.id, await panelOf(debate), secrets.csrf));
  });
  routes.get("/d/:id/progress", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    return c.html(progressItems(logs.get(debate.dir) ?? []));
  });
  routes.get("/d/:id/facts", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const r = await debateStatus(debate.dir);
    const progress =
      r.exchange === undefined ? "-" : `${r.exchange}${r.exchanges === undefined ? "" : `/${r.exchanges}`}`;
    const standing = r.winner
      ? r.winner === "tie"
        ? "tie"
        : `${r.winner} wins`
      : r.sides
        ? `${r.sides.proposition} / ${r.sides.opposition}`
        : "-";
    return c.text(
      `${r.format ?? "-"} · ${r.phase ?? "-"} · ${progress} · ${standing}${r.last_error ? ` · last error: ${r.last_error}` : ""}`,
    );
  });
  routes.get("/d/:id/report", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const state = await readState(debate.dir);
    if (!state)
      return c.html(refusedPage(409, (await debateStatus(debate.dir)).last_error ?? "unreadable"), 409);
    const [[, { readJournal, readLockHolder }], { createReport }] = await Promise.all([
      engine(),
      import("@debatekit/report"),
    ]);
    const journal = await readJournal(debate.dir).catch(() => []);
    // A run under way (this page's or another process's) is said as running, not as not started.
    const holder = await readLockHolder(debate.dir).catch(() => undefined);
    const { html } = createReport({ state, journal, ...(holder ? { running: { pid: holder.pid } } : {}) });
    c.header("Content-Security-Policy", REPORT_CSP);
    c.header("X-Frame-Options", "SAMEORIGIN");
    return c.html(html);
  });

  /**
   * Starts advancing a debate in this process (the same lock as `debate run`); its events go to every
   * page. Returns why it did not start when another process holds the debate's lock.
   */
  const startRun = async (debate: ServedDebate): Promise<string | undefined> => {
    if (runs.has(debate.dir)) return undefined;
    const [{ formatOfState, quote }, { readLockHolder }, { runDebate }] = await engine();
    // Told before anything starts; a runner that takes the lock right after is caught by the run itself.
    const holder = await readLockHolder(debate.dir);
    if (holder)
      return `not started: ${debate.id} is being advanced by pid ${holder.pid} on ${holder.host} (${quote(holder.command, 120)}) since ${holder.started_at}; stop it there, or wait for it to end`;
    const state = await readState(debate.dir);
    const controller = new AbortController();
    const log = logs.get(debate.dir) ?? [];
    logs.set(debate.dir, log);
    const send = (line: string, extra: Pick<ProgressLine, "started" | "finished" | "ended"> = {}) => {
      const entry: ProgressLine = { seq: ++seq, line, at: Date.now(), ...extra };
      log.push(entry);
      log.splice(0, Math.max(0, log.length - 200));
      broadcast("run", JSON.stringify({ id: debate.id, ...entry }));
    };
    // The terminal's progress lines, as `debate run` prints them without a terminal.
    let pendingExtra: { started?: string; finished?: string } = {};
    const lines = {
      write(chunk: string) {
        for (const line of String(chunk).split("\n").filter(Boolean)) send(line, pendingExtra);
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    // Counted against the debate's length from the start, as `debate run` counts it.
    const progress = createProgress(
      { stdout: lines, stderr: lines, env: { ...options.env, NO_COLOR: "1" }, cwd: options.cwd },
      state ? formatOfState(state).standing(state) : undefined,
    );
    const onEvent = (event: RunEvent) => {
      pendingExtra =
        event.type === "seat_started"
          ? { started: event.role }
          : event.type === "seat_finished"
            ? { finished: event.role }
            : {};
      progress.onEvent(event);
      pendingExtra = {};
      if (event.type === "step_committed") broadcast("changed", JSON.stringify([debate.id]));
    };
    const done = runDebate(debate.dir, {
      signal: controller.signal,
      onEvent,
      env: options.env,
      cwd: options.cwd,
    })
      .then((summary) =>
        send(
          controller.signal.aborted
            ? "run stopped: nothing half-done was kept; Run resumes it from its last committed step"
            : `run ended: ${summary.status}${summary.reason ? ` (${summary.reason})` : ""}${summary.error ? `: ${summary.error.message}` : ""}`,
          { ended: true },
        ),
      )
      .catch((error: unknown) =>
        send(`run failed: ${error instanceof Error ? error.message : String(error)}`, { ended: true }),
      )
      .finally(() => {
        progress.stop();
        runs.delete(debate.dir);
        broadcast("changed", JSON.stringify([debate.id]));
      });
    runs.set(debate.dir, { controller, done });
    broadcast("changed", JSON.stringify([debate.id]));
    return undefined;
  };

  const back = (c: Context, debate: ServedDebate) =>
    c.redirect(`${base}/d/${encodeURIComponent(debate.id)}`, 303);

  routes.post("/d/:id/run", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const held = await startRun(debate);
    return held ? refused(c, debate, held, {}, 409) : back(c, debate);
  });
  routes.post("/d/:id/stop", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const run = runs.get(debate.dir);
    run?.controller.abort();
    await run?.done;
    return back(c, debate);
  });

  /** Rewrites debate.md's frontmatter as a person's edit would, after the format checked the result. */
  const editFrontmatter = async (
    debate: ServedDebate,
    change: Record<string, unknown>,
  ): Promise<string | undefined> => {
    const [
      { formatOf },
      {
        readTextInside,
        resolveInside,
        splitFrontmatter,
        updateFrontmatter,
        writeFileAtomic,
        MAX_MARKDOWN_BYTES,
      },
    ] = await engine();
    const text = await readTextInside(debate.dir, "debate.md", MAX_MARKDOWN_BYTES);
    if (!text.ok || text.value === undefined) return "debate.md does not read";
    const doc = splitFrontmatter(text.value, "debate.md");
    if (!doc.ok) return doc.errors[0]?.message ?? "debate.md does not parse";
    const data = { ...doc.value.data, ...change };
    const format = formatOf(data);
    const checked = format.ok ? format.value.validateFrontmatter(data) : undefined;
    if (!checked?.ok)
      return `not written: debate.md would not be valid (${checked ? checked.errors.map((e) => `${e.path}: ${e.message}`).join("; ") : "unknown format"})`;
    await writeFileAtomic(
      resolveInside(debate.dir, "debate.md"),
      updateFrontmatter(text.value, { ...doc.value, data }, doc.value.data),
    );
    return undefined;
  };

  /** The debate's page again with a notice: the request was refused and nothing was written. */
  const refused = async (
    c: Context,
    debate: ServedDebate,
    notice: string,
    extra: Partial<DebatePanel> = {},
    status: 409 | 422 = 422,
  ) =>
    c.html(
      debatePage(
        base,
        debate.id,
        await debateStatus(debate.dir),
        await panelOf(debate, { ...extra, notice }),
        secrets.csrf,
      ),
      status,
    );

  /** Applies a frontmatter edit from a form (refused with a notice when the format rejects it). */
  const edited = async (c: Context, debate: ServedDebate, change: Record<string, unknown>) => {
    const problem = await editFrontmatter(debate, change);
    if (problem) return refused(c, debate, problem);
    broadcast("changed", JSON.stringify([debate.id]));
    return undefined;
  };

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const)
    routes.post(`/d/:id/${action}`, async (c) => {
      const debate = await debateOf(c);
      if (!debate) return notFound(c);
      return (await edited(c, debate, { paused })) ?? back(c, debate);
    });

  // A person's decision, written to the key the format names (as they would in debate.md); the run applies it.
  routes.post("/d/:id/decision", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const form = c.get("form" as never) as Record<string, unknown>;
    const state = await readState(debate.dir);
    const [{ formatOfState }] = await engine();
    const awaited = state ? formatOfState(state).awaitingDecision?.(state) : undefined;
    if (!awaited)
      return refused(c, debate, `not written: ${debate.id} is not waiting for a decision (anymore)`);
    const choice = awaited.choices.find((ch) => ch.key === form.decision);
    if (!choice)
      return refused(
        c,
        debate,
        `not written: expected one of ${awaited.choices.map((ch) => ch.key).join(", ")}`,
      );
    const problem = await edited(c, debate, { [awaited.key]: choice.key });
    if (problem) return problem;
    await startRun(debate);
    return back(c, debate);
  });

  // More exchanges/rounds: the format's length key, raised only (a finished debate goes on).
  routes.post("/d/:id/length", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const form = c.get("form" as never) as Record<string, unknown>;
    const length = (await panelOf(debate)).length;
    if (!length) return refused(c, debate, `not written: ${debate.id} has no length to raise`);
    // Changed on disk since the page showed it (an editor, another page): the person decides again,
    // their value kept in the field.
    const draft = String(form.value ?? "");
    if (form.shown !== undefined && Number(form.shown) !== length.value)
      return refused(
        c,
        debate,
        `not written: ${length.key} changed in debate.md since this page showed it (${String(form.shown)}, now ${length.value}); your value is kept: send it again to apply it`,
        { length: { ...length, draft } },
        409,
      );
    const value = Number(form.value);
    if (!Number.isInteger(value) || value < length.value || value > length.max)
      return refused(
        c,
        debate,
        `not written: ${length.key} can only be raised, from ${length.value} to at most ${length.max} (got ${JSON.stringify(draft)})`,
        { length: { ...length, draft } },
      );
    return (await edited(c, debate, { [length.key]: value })) ?? back(c, debate);
  });

  routes.post("/d/:id/answer", async (c) => {
    const debate = await debateOf(c);
    if (!debate) return notFound(c);
    const form = c.get("form" as never) as Record<string, unknown>;
    const stem = typeof form.stem === "string" ? form.stem : "";
    const text = typeof form.text === "string" ? form.text.replace(/\r\n/g, "\n") : "";
    const [{ formatOfState, formatRuleErrors }, { resolveInside, MAX_MARKDOWN_BYTES }] = await engine();
    const state = await readState(debate.dir);
    const asks = state ? await unansweredAsks(debate.dir, state.frontmatter.current_exchange) : [];
    const ask = asks.find((a) => a.stem === stem);
    const page = async (status: 403 | 409 | 413 | 422, extra: Partial<DebatePanel>) =>
      c.html(
        debatePage(
          base,
          debate.id,
          await debateStatus(debate.dir),
          await panelOf(debate, extra),
          secrets.csrf,
        ),
        status,
      );
    if (!state || !ask) {
      const notice = `not written: ${debate.id} is not waiting for inbox/${stem}.md (anymore)`;
      // Answered meanwhile (another page, an editor): that answer stands, the person's text is kept.
      const first =
        state && (await answeredAsks(debate.dir, state.frontmatter.current_exchange)).includes(stem);
      return page(409, text ? { kept: { stem, text, reason: first ? ANSWERED_FIRST : notice } } : { notice });
    }
    const refusedAnswer = (errors: string[]) =>
      page(Buffer.byteLength(text) > MAX_MARKDOWN_BYTES ? 413 : 422, {
        asks: [{ stem, role: ask.role, prompt: "", errors, draft: text }],
      });
    if (Buffer.byteLength(text) > MAX_MARKDOWN_BYTES)
      return refusedAnswer([`the answer is over ${MAX_MARKDOWN_BYTES} bytes`]);
    // The format's own check, the one the run would make: every problem at once, nothing written.
    const parsed = formatOfState(state).parseAnswer(state, ask.role, text);
    // Worded as the run words them (its retry prompt, the terminal): the one formatter.
    if (!parsed.ok) return refusedAnswer(formatRuleErrors(parsed.errors));
    // As a person's editor would: the whole file at once, in the seat's inbox; never over an answer
    // that another page or an editor wrote first.
    // inbox/ (or the file) a symbolic link out of the folder: refused with the reason, the text kept.
    let target: string;
    try {
      target = resolveInside(debate.dir, `inbox/${stem}.md`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "PATH_ESCAPE") throw error;
      return page(403, { kept: { stem, text, reason: `not written: ${(error as Error).message}` } });
    }
    if (!(await writeNewFile(target, text)))
      return page(409, { kept: { stem, text, reason: ANSWERED_FIRST } });
    await startRun(debate);
    return back(c, debate);
  });

  return {
    app,
    changed: (ids) => broadcast("changed", JSON.stringify(ids)),
    stopRuns: async () => {
      for (const run of runs.values()) run.controller.abort();
      await Promise.all([...runs.values()].map((r) => r.done));
    },
    debates: async () => [...(await debates()), ...(await tournaments())],
  };
}
