import { describe, expect, it } from "vitest";
import { envelopeFromProcess } from "./envelope.js";
import { REDACTED, redactSecrets, sanitizeError, secretsFromEnv } from "./redact.js";

// Fake credentials with the shapes of real ones: prefixes, lengths and random-looking bodies.
const B64 = "Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0eG3hJ5kL9nP";
const PEM = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${B64}\n${B64}==\n-----END RSA PRIVATE KEY-----`;

describe("redactSecrets", () => {
  const cases: [string, string][] = [
    [`key sk-ant-api03-${B64}-Ab_9xAA here`, "key [REDACTED] here"],
    ["OPENAI sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234", "OPENAI [REDACTED]"],
    [`legacy sk-${B64.slice(0, 48)}`, "legacy [REDACTED]"],
    ["google AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "google [REDACTED]"],
    ["gh ghp_abcdefghijklmnopqrstuvwxyz0123456789", "gh [REDACTED]"],
    ["pat github_pat_11ABCDEFG0123456789_abcdefghijkl", "pat [REDACTED]"],
    ["aws AKIAQ3EGRQZ7XKJ4TB2M.", "aws [REDACTED]."],
    ["slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "slack [REDACTED]"],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "Authorization: [REDACTED]"],
    ["curl -H 'x-api-key: 9f86d081884c7d659a2feaa0c55ad015'", "curl -H 'x-api-key: [REDACTED]'"],
    ['{"authorization":"Token Q2x8Vb7nM1kZ4pR9sT3w"}', '{"authorization":"[REDACTED]"}'],
    ["api_key=Q2x8Vb7nM1kZ4pR9sT3w&x=1", "api_key=[REDACTED]&x=1"],
    ["sent Bearer abcdefgh12345678 upstream", `sent Bearer ${REDACTED} upstream`],
    [`k: ${PEM} ok`, "k: [REDACTED] ok"],
  ];
  for (const [input, expected] of cases) {
    it(`redacts ${input.slice(0, 24)}...`, () => {
      expect(redactSecrets(input)).toBe(expected);
    });
  }

  it("removes every occurrence of explicitly given secret values", () => {
    const out = redactSecrets("pw=hunter2hunter2 and again hunter2hunter2", ["hunter2hunter2"]);
    expect(out).toBe("pw=[REDACTED] and again [REDACTED]");
  });

  it("removes the exact value of OPENAI_API_KEY taken from the environment", () => {
    const key = `sk-proj-${B64}`;
    const secrets = secretsFromEnv({ OPENAI_API_KEY: key, HOME: "/home/someone" });
    expect(redactSecrets(`the CLI echoed ${key}!`, secrets)).toBe("the CLI echoed [REDACTED]!");
    // Found as a value even when glued to a word, where the key shape alone would not match.
    expect(redactSecrets(`x${key}`, secrets)).toBe("x[REDACTED]");
  });

  it("leaves ordinary prose alone", () => {
    const text = "The key point: tests pass, and the task-skip rate is low.";
    expect(redactSecrets(text)).toBe(text);
  });

  // Each of these was mangled by the previous patterns (`ri[REDACTED]`, text cut after a header, a
  // number removed everywhere) and reached committed argument files that way.
  it.each([
    ["a word containing sk-", "Adopt the risk-assessment-framework-guideline for releases."],
    [
      "a quoted PEM header without a body",
      'Never commit a "-----BEGIN RSA PRIVATE KEY-----" file; rotate it. The rest stays.',
    ],
    ["sk- before hyphenated words", "Teams use sk-learn-style-pipelines-for-everything already."],
    ["a bearer of news", "The bearer of this argument concedes the point about latency."],
  ])("passes %s through untouched", (_name, text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it("passes a number through when a secret-named variable holds it", () => {
    const secrets = secretsFromEnv({ TOKEN_LIMIT: "100000", MAX_TOKENS: "200000000" });
    expect(secrets).toEqual([]);
    const text = "A budget of 100000 tokens, 200000000 over the year.";
    expect(redactSecrets(text, secrets)).toBe(text);
  });
});

describe("secretsFromEnv", () => {
  it("picks values of variables named like secrets, not others", () => {
    const env = {
      MY_API_KEY: "abcdef123456",
      GH_TOKEN: "tok_987654321",
      HOME: "/home/someone",
      DB_PASSWORD: "s3cretpass",
    };
    expect(secretsFromEnv(env).sort()).toEqual(["abcdef123456", "s3cretpass", "tok_987654321"]);
  });
});

describe("sanitizeError", () => {
  it("makes one redacted line of at most 200 characters", () => {
    const out = sanitizeError(`fail\nwith sk-ant-api03-${B64}\n${"x".repeat(400)}`);
    expect(out).not.toContain("\n");
    expect(out).not.toContain("sk-ant");
    expect(out.length).toBeLessThanOrEqual(200);
  });
});

describe("cutting after redaction: no piece of a secret survives (docs/architecture.md#crash-safe-and-exactly-once)", () => {
  // A seeded generator: the same secrets and cut points on every run.
  let seed = 20261124;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const TOKEN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const randomSecret = () =>
    Array.from(
      { length: 8 + Math.floor(random() * 56) },
      () => TOKEN[Math.floor(random() * TOKEN.length)],
    ).join("");
  const pieces = (secret: string, output: string) =>
    Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8)).filter((p) =>
      output.includes(p),
    );
  const outcome = (stdout: string, stderr: string, truncated = false) => ({
    stdout,
    stderr,
    exitCode: 1,
    signal: null,
    timedOut: false,
    cancelled: false,
    truncated,
    durationMs: 5,
  });

  it("a message its CLI parser cut (without the env's values) is cleaned by the envelope (which has them)", () => {
    for (let run = 0; run < 300; run++) {
      const secret = randomSecret();
      const message = `API Error: 401 {"error":{"message":"invalid x-api-key ${secret}"}} while calling the model`;
      const cut = 1 + Math.floor(random() * (message.length + 20));
      // What a CLI adapter's parseOutput does: it cannot know the environment's secret values.
      const parseError = `claude reported error: ${sanitizeError(message, [], cut)}`;
      const call = envelopeFromProcess(
        outcome("", ""),
        { parseError },
        { timeoutMs: 1000, secrets: [secret] },
      );
      for (const output of [call.error ?? "", call.raw?.stdout ?? "", call.raw?.stderr ?? ""]) {
        expect(pieces(secret, output), `${secret} cut at ${cut}: ${output}`).toEqual([]);
      }
    }
  });

  it("stderr cut at its byte cap in the middle of a secret keeps no piece of it in raw or error", () => {
    for (let run = 0; run < 300; run++) {
      const secret = randomSecret();
      const stderr = `fatal: bad credentials ${secret} rejected`;
      const cap = 1 + Math.floor(random() * stderr.length);
      const call = envelopeFromProcess(
        outcome("", stderr.slice(0, cap), cap < stderr.length),
        {},
        { timeoutMs: 1000, secrets: [secret], program: "codex" },
      );
      for (const output of [call.error ?? "", call.raw?.stderr ?? ""]) {
        expect(pieces(secret, output), `${secret} cut at ${cap}: ${output}`).toEqual([]);
      }
    }
  });

  it("sanitizeError redacts first: a key at the cut point is gone, not half there", () => {
    const key = "sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0";
    const text = `${"x".repeat(180)} ${key} tail`;
    expect(sanitizeError(text)).toBe(`${"x".repeat(180)} [REDACTED] tail`);
    expect(sanitizeError(text, [], 192)).toBe(`${"x".repeat(180)} [REDACTED]…`);
  });
});
