import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { describe, expect, test } from "vitest";
import { loopbackAddress, refusesConnections } from "./probe.js";

describe("loopbackAddress", () => {
  test("names the host and port of a loopback URL only", () => {
    expect(loopbackAddress("http://127.0.0.1:8080/v1")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(loopbackAddress("http://localhost/v1")).toEqual({ host: "localhost", port: 80 });
    expect(loopbackAddress("https://[::1]/v1")).toEqual({ host: "::1", port: 443 });
    expect(loopbackAddress("https://api.example.com/v1")).toBeUndefined();
    expect(loopbackAddress("http://10.0.0.2:11434")).toBeUndefined();
    expect(loopbackAddress("not a url")).toBeUndefined();
    expect(loopbackAddress("file:///tmp/x")).toBeUndefined();
  });
});

describe("refusesConnections", () => {
  test("true for a loopback port nobody listens on, false for a listening one and for remote URLs", async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    expect(await refusesConnections(`http://127.0.0.1:${port}/v1`)).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await refusesConnections(`http://127.0.0.1:${port}/v1`)).toBe(true);
    expect(await refusesConnections("https://api.example.com/v1")).toBe(false);
  });
});
