import { randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The secrets of one `debate serve` process: the URL's token, the token every form and POST carries,
 * and the instance id of the secret path every page of this server lies under (servePrefix).
 */
export interface ServeSecrets {
  token: string;
  csrf: string;
  instance: string;
}

/** Fresh secrets (192 bits each for the tokens, 128 for the instance id; URL-safe). */
export function newSecrets(): ServeSecrets {
  return {
    token: randomBytes(24).toString("base64url"),
    csrf: randomBytes(24).toString("base64url"),
    instance: randomBytes(16).toString("base64url"),
  };
}

/**
 * The path every page of this server lies under, and the token cookie's Path: a browser sends the
 * cookie of 127.0.0.1 to every port, but only to paths under its Path, which no other server's page
 * can guess. Anything outside it is answered 404, with nothing else said.
 */
export function servePrefix(secrets: Pick<ServeSecrets, "instance">): string {
  return `/s/${secrets.instance}`;
}

/**
 * The cookie that carries the token once the URL's `?token=` was seen, named by the server's port: a
 * browser keeps cookies by host, not port, so two servers on 127.0.0.1 each keep their own. Its Path
 * is the server's secret prefix (servePrefix), so it goes to no other server.
 */
export function tokenCookie(port: number): string {
  return `debatekit_serve_${port}`;
}

/** The most a request body may hold: an answer of MAX_MARKDOWN_BYTES form-encoded (each byte as `%XX`), and the form around it. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024 + 64 * 1024;

/**
 * Where the token's redirect goes: the request's own path on this server. A path that starts with
 * `//` or a backslash would be read by a browser as another host (`//evil.example/x`), so the
 * leading slashes collapse to one.
 */
export function sameOriginPath(path: string): string {
  return `/${path.replace(/^[/\\]+/, "")}`;
}

/** True when both strings are equal, in a time that does not depend on where they differ. */
export function sameSecret(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * True when a request's Host header names this server on a loopback address: a page of another
 * site that rebinds its DNS name to 127.0.0.1 sends its own name, and is refused.
 */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host);
}

/** Our own pages: scripts and styles from this server only, nothing inline, no other origin. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/**
 * A debate's report, shown in a frame of the debate page: the report renderer's own page (its styles
 * and SVG inline), with no script at all and nothing loaded from anywhere.
 */
export const REPORT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "form-action 'none'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "sandbox",
].join("; ");
