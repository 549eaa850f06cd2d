import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, sanitizeError, secretsFromEnv } from "./redact.js";

describe("redactSecrets", () => {
  const cases: [string, string][] = [
    ["key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv_wx-yz here", "key [REDACTED] here"],
    ["OPENAI sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234", "OPENAI [REDACTED]"],
    ["legacy sk-AbCdEfGhIjKlMnOpQrStUvWx", "legacy [REDACTED]"],
    ["google AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "google [REDACTED]"],
    ["gh ghp_abcdefghijklmnopqrstuvwxyz0123456789", "gh [REDACTED]"],
    ["pat github_pat_11ABCDEFG0123456789_abcdefghijkl", "pat [REDACTED]"],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "Authorization: [REDACTED]"],
    ["curl -H 'x-api-key: abc123def456'", "curl -H 'x-api-key: [REDACTED]'"],
    ['{"authorization":"Token abcdefgh12345"}', '{"authorization":"[REDACTED]"}'],
    ["sent Bearer abcdefgh12345678 upstream", `sent Bearer ${REDACTED} upstream`],
    ["k: -----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- ok", "k: [REDACTED] ok"],
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

  it("leaves ordinary prose alone", () => {
    const text = "The key point: tests pass, and the task-skip rate is low.";
    expect(redactSecrets(text)).toBe(text);
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
    const out = sanitizeError(`fail\nwith sk-ant-${"a".repeat(40)}\n${"x".repeat(400)}`);
    expect(out).not.toContain("\n");
    expect(out).not.toContain("sk-ant");
    expect(out.length).toBeLessThanOrEqual(200);
  });
});
