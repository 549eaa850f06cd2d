import { describe, expect, it } from "vitest";
import { findSecret, journalSecrets } from "./secrets.js";

// Fake credentials with the shapes of real ones (random-looking bodies, right lengths and prefixes).
const B64 = "Zk9xT3BlbkFJ8vQ2mR7tY1uW4zX6cD0eG3hJ5kL9nP";
const CREDENTIALS: Array<[string, string, RegExp]> = [
  ["an Anthropic key", `key sk-ant-api03-${B64}${B64}-Ab_9xAA`, /API key/],
  ["an OpenAI project key", `"OPENAI_API_KEY=sk-proj-${B64}_T3BlbkFJ${B64}"`, /API key/],
  ["a legacy OpenAI key", `(sk-${B64.slice(0, 48)})`, /API key/],
  ["a GitHub token", `push with ghp_${"a".repeat(36)}`, /GitHub token/],
  ["a fine-grained GitHub token", `github_pat_11ABCDEFG0${B64}`, /GitHub token/],
  ["an AWS access key id", "aws_access_key_id = AKIAQ3EGRQZ7XKJ4TB2M", /AWS/],
  ["a Google API key", `?key=AIzaSyD${B64.slice(0, 32)}`, /Google API key/],
  ["a Slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", /Slack/],
  [
    "a bearer JWT",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    /bearer/,
  ],
  ["a bearer header", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123", /bearer/],
  ["a basic auth header", "authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQxMjM0NTY=", /bearer or basic/],
  ["a hex key in an x-api-key header", '{"x-api-key": "9f86d081884c7d659a2feaa0c55ad015"}', /assignment/],
  ["an api_key assignment", "api_key=Q2x8Vb7nM1kZ4pR9sT3w", /assignment/],
  ["a client secret in JSON", '"client_secret": "GOCSPX-4uE9kLm2Qw8xZp7Rt1Yv"', /assignment/],
  [
    "a PEM private key",
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${B64}\n${B64}\n-----END RSA PRIVATE KEY-----`,
    /private key/,
  ],
  [
    "a JSON-escaped OpenSSH private key in stdout",
    String.raw`{"text":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END"}`,
    /private key/,
  ],
  [
    "an encrypted PEM key with headers",
    `-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,1A2B3C\n\n${B64}${B64}\n`,
    /private key/,
  ],
];

// Debate text that talks about credentials without holding one. Each of the first four was refused
// by the previous check (SECRET_IN_JOURNAL, failing the run).
const PROSE: Array<[string, string]> = [
  [
    "a lowercase `bearer` before a hyphenated phrase",
    "The bearer token-based-authentication-flow is the weak point.",
  ],
  ["`sk-` before hyphenated words", "Teams use (sk-learn-style-pipelines-for-everything) already."],
  [
    "a private-key header quoted in an argument",
    "A committed -----BEGIN RSA PRIVATE KEY----- block is a classic leak.",
  ],
  ["a Slack prefix in prose", "Bot tokens look like xoxb-tokens-look-like-this in the docs."],
  [
    "credential words",
    "Never paste an api_key, a token, a password or anything starting with sk- into a prompt.",
  ],
  [
    "an api_key placeholder",
    'Set api_key: "YOUR_API_KEY_HERE" or api_key = process.env.OPENAI_API_KEY first.',
  ],
  [
    "long hex ids",
    "Commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 (session 3f2a9c4e-7b1d-4e8a-9c2f-0d1e2f3a4b5c) fixed it.",
  ],
  [
    "token counts in a CLI's JSON",
    '{"usage":{"input_tokens":123456,"output_tokens":654321,"cache_read_input_tokens":99999}}',
  ],
  ["a bearer of news", "The bearer of this argument concedes the point about merge latency and review cost."],
  [
    "hex after the word token, not an assignment",
    "the token 9f86d081884c7d659a2feaa0c55ad015 in the log is a request id",
  ],
  ["a redacted header", "Authorization: Bearer [REDACTED] and sk-[REDACTED]"],
  ["`sk-` inside a word", "Adopt the risk-assessment-framework-guideline for releases."],
];

describe("findSecret", () => {
  it.each(CREDENTIALS)("finds %s", (_name, text, kind) => {
    const found = findSecret({ raw: { stdout: text } });
    expect(found).toBeDefined();
    expect(found!.path).toBe("raw.stdout");
    expect(found!.kind).toMatch(kind);
  });

  it.each(PROSE)("lets %s through", (_name, text) => {
    expect(findSecret({ result: { text } })).toBeUndefined();
  });

  it("finds a secret value anywhere, naming its label and the path", () => {
    const secrets = [{ label: "the value of $MY_SERVICE_TOKEN", value: "correct-horse-battery-staple" }];
    expect(findSecret({ a: ["x", { b: "token=correct-horse-battery-staple" }] }, secrets)).toEqual({
      path: "a[1].b",
      kind: "the value of $MY_SERVICE_TOKEN",
    });
    expect(findSecret({ a: "correct horse" }, secrets)).toBeUndefined();
  });

  it("a long string found clean is found again once a value it holds becomes a secret", () => {
    const value = "staple-battery-horse-correct-0123";
    const long = `${"A long prompt without credentials. ".repeat(200)}${value} and more prose.`;
    expect(long.length).toBeGreaterThan(4096);
    // Clean with no secret values (remembered), then again (from memory)...
    expect(findSecret({ prompt: long })).toBeUndefined();
    expect(findSecret({ prompt: long })).toBeUndefined();
    // ...but a new set of values is always looked for, and so is the old set again afterwards.
    const secrets = [{ label: "the value of $LATE_TOKEN", value }];
    expect(findSecret({ prompt: long }, secrets)).toEqual({
      path: "prompt",
      kind: "the value of $LATE_TOKEN",
    });
    expect(findSecret({ prompt: long }, secrets)).toEqual({
      path: "prompt",
      kind: "the value of $LATE_TOKEN",
    });
    expect(findSecret({ prompt: long })).toBeUndefined();
    // A credential shape in a long string is found every time.
    const shaped = `${long} ghp_${"a".repeat(36)}`;
    expect(findSecret({ prompt: shaped })).toBeDefined();
    expect(findSecret({ prompt: shaped })).toBeDefined();
  });
});

describe("journalSecrets", () => {
  it("labels the values of secret env variables and long enough extra values", () => {
    const env = {
      OPENAI_API_KEY: `sk-proj-${B64}`,
      MY_SERVICE_TOKEN: "correct-horse-battery-staple",
      DB_PASSWORD: "hunter2x9",
      SSH_AUTH_SOCK: "/tmp/ssh-XXXXab12cd/agent.4242",
      XAUTHORITY: "/run/user/1000/gdm/Xauthority",
      ACTIONS_ID_TOKEN_REQUEST_URL: "https://token.actions.example.com/abc123",
      AUTH_MODE: "interactive",
      API_KEY_HINT: "see docs",
      TOKEN_LIMIT: "100000",
      PATH: "/usr/bin:/bin",
      HOME_KEYS: undefined,
    };
    expect(journalSecrets(env, ["short", "long-enough-value"]).map((s) => s.label)).toEqual([
      "the value of $OPENAI_API_KEY",
      "the value of $MY_SERVICE_TOKEN",
      "the value of $DB_PASSWORD",
      "a value passed in `secrets`",
    ]);
  });
});
