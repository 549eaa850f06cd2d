import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findSecretSpans,
  hideUrlCredentials,
  looksRandom,
  REDACTED,
  redactMessage,
  removeSecrets,
  replaceSecretSpans,
  seatSecretValues,
  secretEnvValues,
  urlCredentials,
} from "./secrets.js";

// Fake credentials with the shapes of real ones (random-looking bodies, right lengths and prefixes).
const B64 = "Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0eG3hJ5kL9nP";
const PEM_BODY = `MIIEowIBAAKCAQEA${B64}\n${B64}\n${B64.slice(0, 20)}==`;

/** [what, text, the exact text that must be found, kind]. */
const CREDENTIALS: Array<[string, string, string, RegExp]> = [
  ["an Anthropic key", `key sk-ant-api03-${B64}-Ab_9xAA here`, `sk-ant-api03-${B64}-Ab_9xAA`, /API key/],
  ["an OpenAI project key", `OPENAI_API_KEY=sk-proj-${B64}_T3B`, `sk-proj-${B64}_T3B`, /API key/],
  ["a legacy OpenAI key", `(sk-${B64.slice(0, 48)})`, `sk-${B64.slice(0, 48)}`, /API key/],
  ["a GitHub token", `push with ghp_${"a1".repeat(18)}`, `ghp_${"a1".repeat(18)}`, /GitHub/],
  ["a fine-grained GitHub token", `github_pat_11ABCDEFG0${B64}`, `github_pat_11ABCDEFG0${B64}`, /GitHub/],
  ["an AWS access key id", "id = AKIAQ3EGRQZ7XKJ4TB2M.", "AKIAQ3EGRQZ7XKJ4TB2M", /AWS/],
  ["a Google API key", `?key=AIzaSyD${B64.slice(0, 32)}&`, `AIzaSyD${B64.slice(0, 32)}`, /Google/],
  [
    "a Slack bot token",
    "tok xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx end",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    /Slack/,
  ],
  ["a bearer token", "sent Bearer Q2x8Vb7nM1kZ4pR9sT3w upstream", "Q2x8Vb7nM1kZ4pR9sT3w", /bearer/],
  ["an api_key assignment", "api_key=Q2x8Vb7nM1kZ4pR9sT3w;", "Q2x8Vb7nM1kZ4pR9sT3w", /assignment/],
  [
    "an authorization header with its scheme",
    "Authorization: Token Q2x8Vb7nM1kZ4pR9sT3w",
    "Token Q2x8Vb7nM1kZ4pR9sT3w",
    /assignment/,
  ],
  [
    "a full PEM block",
    `k: -----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY----- ok`,
    `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    /private key/,
  ],
  [
    "a JSON-escaped, truncated OpenSSH key",
    String.raw`{"text":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nAAAA\n-----END"}`,
    String.raw`-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nAAAA\n-----END`,
    /private key/,
  ],
];

// Debate text that mentions credentials without holding one; each was mangled by an older check.
const PROSE: Array<[string, string]> = [
  ["`sk-` inside a word", "We follow the risk-assessment-framework-guideline here."],
  ["`sk-` before hyphenated words", "Teams use (sk-learn-style-pipelines-for-everything) already."],
  ["a quoted PEM header without a body", 'Never commit "-----BEGIN RSA PRIVATE KEY-----" files; rotate.'],
  ["a Slack prefix in prose", "Bot tokens look like xoxb-tokens-look-like-this in the docs."],
  ["a bearer of news", "The bearer of this argument concedes the point about merge latency."],
  ["an api_key placeholder", 'Set api_key: "YOUR_API_KEY_HERE" or api_key = process.env.KEY first.'],
  ["long hex ids", "Commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b fixed it."],
  ["a redacted header", `Authorization: Bearer ${REDACTED} and sk-${REDACTED}`],
];

describe("findSecretSpans", () => {
  it.each(CREDENTIALS)("finds %s, exactly", (_name, text, secret, kind) => {
    const spans = findSecretSpans(text);
    expect(spans.length).toBeGreaterThan(0);
    const start = Math.min(...spans.map((s) => s.start));
    const end = Math.max(...spans.map((s) => s.end));
    expect(text.slice(start, end)).toBe(secret);
    expect(spans.map((s) => s.kind).join(" ")).toMatch(kind);
  });

  it.each(PROSE)("finds nothing in %s", (_name, text) => {
    expect(findSecretSpans(text)).toEqual([]);
  });

  it("finds nothing, promptly, after a PEM header followed by many header-like lines (no ReDoS)", () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\n${"Proc-Type: a b c d e f \n".repeat(2000)}x`;
    expect(findSecretSpans(text)).toEqual([]);
    const encrypted = `-----BEGIN EC PRIVATE KEY-----\r\nProc-Type: 4,ENCRYPTED\r\nDEK-Info: AES-128-CBC,1A2B\r\n\r\n${B64}${B64}`;
    expect(findSecretSpans(encrypted).map((s) => [s.start, s.end])).toEqual([[0, encrypted.length]]);
  });

  it("finds every occurrence of a given value, with its label, and ignores short ones", () => {
    const text = "a=correct-horse-battery-staple b=correct-horse-battery-staple short";
    const spans = findSecretSpans(text, [
      { label: "the value of $MY_TOKEN", value: "correct-horse-battery-staple" },
      "short",
    ]);
    expect(spans).toEqual([
      { start: 2, end: 30, kind: "the value of $MY_TOKEN" },
      { start: 33, end: 61, kind: "the value of $MY_TOKEN" },
    ]);
  });
});

describe("findSecretSpans on long texts (clean ones are remembered)", () => {
  it("finds nothing again from memory, but always looks for values it was not given before", () => {
    const value = "staple-battery-horse-correct-4567";
    const long = `${"A long prompt without credentials. ".repeat(200)}${value}, more prose.`;
    expect(long.length).toBeGreaterThan(4096);
    // Redaction with no values finds the text clean (remembered)...
    expect(removeSecrets(long)).toBe(long);
    expect(findSecretSpans(long)).toEqual([]);
    // ...a set of values not seen before is looked for, labelled or not, every time.
    expect(findSecretSpans(long, [value])).toHaveLength(1);
    expect(findSecretSpans(long, [{ label: "the value of $LATER", value }])[0]?.kind).toBe(
      "the value of $LATER",
    );
    expect(removeSecrets(long, [value])).not.toContain(value);
    // A credential shape appended makes another text: found each time.
    const shaped = `${long} ghp_${"b".repeat(36)}`;
    expect(findSecretSpans(shaped)).toHaveLength(1);
    expect(findSecretSpans(shaped)).toHaveLength(1);
  });
});

describe("looksRandom", () => {
  it("tells generated bodies from hyphenated words", () => {
    expect(looksRandom("Q2x8Vb7nM1kZ4pR9sT3w")).toBe(true);
    expect(looksRandom("assessment-framework-guideline")).toBe(false);
    expect(looksRandom("AbCdEfGhIjKlMnOpQrStUv")).toBe(false);
  });
});

describe("replaceSecretSpans and removeSecrets", () => {
  it("replaces the union of overlapping spans once", () => {
    const spans = [
      { start: 2, end: 6, kind: "a" },
      { start: 4, end: 9, kind: "b" },
      { start: 12, end: 13, kind: "c" },
    ];
    expect(replaceSecretSpans("0123456789abcdef", spans)).toBe(`01${REDACTED}9ab${REDACTED}def`);
  });

  it("repeats until a shape hidden behind a value is gone too", () => {
    const text = `x Zq8vN3xK7mW2pL9tsk-proj-${B64} y`;
    // The key follows a letter, so only the value is found at first.
    expect(findSecretSpans(text).length).toBe(0);
    const out = removeSecrets(text, ["Zq8vN3xK7mW2pL9t"]);
    expect(out).toBe(`x ${REDACTED}${REDACTED} y`);
    expect(findSecretSpans(out, ["Zq8vN3xK7mW2pL9t"])).toEqual([]);
  });

  it("leaves nothing it would find, for any text with embedded secrets", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(...CREDENTIALS.map(([, , secret]) => secret), "sk-", "Bearer ", "api_key=", " "),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.array(fc.string({ minLength: 8 })),
        (parts, values) => {
          const out = removeSecrets(parts.join(""), values);
          expect(findSecretSpans(out, values)).toEqual([]);
        },
      ),
    );
  });
});

describe("secretEnvValues", () => {
  it("keeps values of secret-named variables that cannot turn up by chance", () => {
    const env = {
      OPENAI_API_KEY: `sk-proj-${B64}`,
      MY_SERVICE_TOKEN: "correct-horse-battery-staple",
      DB_PASSWORD: "hunter2x9",
      SSH_AUTH_SOCK: "/tmp/ssh-XXXXab12cd/agent.4242",
      ACTIONS_ID_TOKEN_REQUEST_URL: "https://token.actions.example.com/abc123",
      AUTH_MODE: "interactive",
      TOKEN_LIMIT: "100000",
      MAX_TOKENS: "1000000000",
      PATH: "/usr/bin:/bin",
      HOME_KEYS: undefined,
    };
    expect(secretEnvValues(env).map((s) => s.name)).toEqual([
      "OPENAI_API_KEY",
      "MY_SERVICE_TOKEN",
      "DB_PASSWORD",
    ]);
  });
});

/** A `${NAME}` reference, as a seat's `env:` value holds it. */
const ref = (name: string) => `\${${name}}`;

describe("secrets a seat or a URL makes", () => {
  it("the environment's URL passwords are secrets whatever the variable's name, however short", () => {
    const env = {
      REDIS_URL: "redis://default:rEd1s-Pw@10.0.0.5:6379/0",
      DATABASE_URL: "postgres://app:p%40ss@db/app",
      GIT_REMOTE: "ssh://git@github.com/o/r.git",
      HOME: "/home/me",
    };
    expect(secretEnvValues(env).map((s) => [s.name, s.value, s.label])).toEqual([
      ["REDIS_URL", "rEd1s-Pw", "the password in $REDIS_URL"],
      ["DATABASE_URL", "p%40ss", "the password in $DATABASE_URL"],
      ["DATABASE_URL", "p@ss", "the password in $DATABASE_URL"],
    ]);
    expect(urlCredentials("https://ghp1x2y3z4a5b6c7d8e9f0g@github.com/o")).toEqual([
      "ghp1x2y3z4a5b6c7d8e9f0g",
    ]);
  });

  it("a URL's password is a secret shape: the password goes, scheme, user and host stay; what redaction left is not found again", () => {
    expect(removeSecrets("connect to redis://default:x1@host:6379/0 now")).toBe(
      `connect to redis://default:${REDACTED}@host:6379/0 now`,
    );
    expect(removeSecrets("postgres://app:p@ss@db/app")).toBe(`postgres://app:${REDACTED}@db/app`);
    expect(findSecretSpans(`redis://u:${REDACTED}@h and redis://u:***@h`)).toEqual([]);
  });

  it("the value of every variable a seat names, whatever its name: api_key_env, env references, filled-in env entries", () => {
    const env = {
      LLM_CRED: "Qv7rT2mX9kLp4wZs",
      HOST_PART: "inner-host-77",
      SHORT: "abc",
      OTHER: "not-named-1234",
    };
    const seats = {
      seats: { critic: { adapter: "http", api_key_env: "LLM_CRED" } },
      judges: {
        panel: [
          {
            adapter: "codex",
            env: { CODEX_HOST: `https://${ref("HOST_PART")}.example`, MODE: "plain-literal-value" },
          },
        ],
        fallback: { adapter: "gemini", api_key_env: "SHORT" },
      },
    };
    expect(seatSecretValues(seats, env).map((s) => [s.name, s.value])).toEqual([
      ["LLM_CRED", "Qv7rT2mX9kLp4wZs"],
      ["HOST_PART", "inner-host-77"],
      ["CODEX_HOST", "https://inner-host-77.example"],
    ]);
    expect(removeSecrets("the judge says Qv7rT2mX9kLp4wZs", seatSecretValues(seats, env))).toBe(
      `the judge says ${REDACTED}`,
    );
  });
});

/** [what, text quoted in an error, what the error may show]. */
const MESSAGES: Array<[string, string, string]> = [
  [
    "a Redis URL with user and password",
    'cannot reach "redis://default:hunter2pw@10.0.0.5:6379/0"',
    'cannot reach "redis://default:***@10.0.0.5:6379/0"',
  ],
  ["a password without a user", "redis://:s3cretpass@host/0 refused", "redis://:***@host/0 refused"],
  [
    "a token as the whole userinfo",
    "https://ghtoken123@github.com/o/r.git",
    "https://***@github.com/o/r.git",
  ],
  ["a raw @ inside the password", "redis://u:p@ss@host:1/0", "redis://u:***@host:1/0"],
  [
    "a seat spec whose base URL has credentials",
    "--seats: http:m@http://user:PW9x@127.0.0.1:8080/v1 is not valid",
    "--seats: http:m@http://user:***@127.0.0.1:8080/v1 is not valid",
  ],
  ["two URLs in one line", "a://x:1@h b://y:2@k", "a://x:***@h b://y:***@k"],
  [
    "a key where a variable's name belongs",
    `field \`api_key_env\` (got "sk-ant-api03-${B64}")`,
    `field \`api_key_env\` (got "${REDACTED}")`,
  ],
  [
    "a key inside URL userinfo and after it",
    `https://user:sk-ant-api03-${B64}@h?key=AIzaSyD${B64.slice(0, 32)}`,
    `https://user:***@h?key=${REDACTED}`,
  ],
];

// Text that names URLs or people without a credential; an error must show it as it is.
const PLAIN: string[] = [
  "redis://127.0.0.1:6379/0",
  "http://[::1]:8080/v1?x=a@b",
  "write to ops@example.com or see https://example.com/a@b",
  "http:llama3@http://127.0.0.1:8080/v1",
  "mailto:someone@example.com",
];

describe("redactMessage", () => {
  it.each(MESSAGES)("hides %s", (_what, text, shown) => {
    expect(redactMessage(text)).toBe(shown);
  });

  it.each(PLAIN)("leaves %s as it is", (text) => {
    expect(redactMessage(text)).toBe(text);
  });

  it("replaces the values it is given (an environment's secrets), whatever their shape", () => {
    const secrets = [{ label: "the value of $DB_PASSWORD", value: "correct-horse-battery" }];
    expect(redactMessage("login failed for correct-horse-battery", secrets)).toBe(
      `login failed for ${REDACTED}`,
    );
  });

  it("leaves no URL password and nothing findSecretSpans finds, for any text around them", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9%!$&*+=~-]{1,24}$/);
    fc.assert(
      fc.property(fc.string(), secret, fc.string(), (before, password, after) => {
        const text = `${before} redis://default:${password}@db.internal:6379/0 ${after}`;
        const shown = redactMessage(text);
        expect(shown).toContain("redis://default:***@db.internal:6379/0");
        expect(findSecretSpans(shown)).toEqual([]);
        expect(hideUrlCredentials(shown)).toBe(shown);
      }),
    );
  });
});
