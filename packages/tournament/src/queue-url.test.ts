import { describe, expect, it } from "vitest";
import { queueUrlWarnings } from "./redis.js";

// What `debate worker` and `tournament run --queue` warn about a queue URL as they start: a Redis
// off this machine without a password, or without TLS; never the password itself.
describe("queueUrlWarnings", () => {
  it("a Redis on this machine gets no warning, with or without a password", () => {
    for (const url of [
      "redis://127.0.0.1:6379",
      "redis://localhost:6379/0",
      "redis://[::1]:6379",
      "redis://127.0.1.1:6379",
      "redis://:pw@127.0.0.1:6379",
    ])
      expect(queueUrlWarnings(url), url).toEqual([]);
  });

  it("a Redis off this machine without a password and over redis:// gets both warnings", () => {
    const warnings = queueUrlWarnings("redis://10.0.0.5:6379");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^the queue at 10\.0\.0\.5:6379 is not on this machine and its URL has no password/,
    );
    expect(warnings[1]).toMatch(/its URL is redis:\/\/, not rediss:\/\//);
  });

  it("a password and TLS silence them one by one, and the password is never shown", () => {
    const password = "Qpw-0c5e7d91ab";
    const plain = queueUrlWarnings(`redis://default:${password}@redis.example:6380`);
    expect(plain).toHaveLength(1);
    expect(plain[0]).toContain("redis.example:6380");
    expect(plain[0]).toContain("not rediss://");
    expect(plain.join("\n")).not.toContain(password);
    expect(queueUrlWarnings("rediss://redis.example:6380")).toEqual([
      expect.stringContaining("has no password"),
    ]);
    expect(queueUrlWarnings(`rediss://:${password}@redis.example:6380`)).toEqual([]);
  });
});
