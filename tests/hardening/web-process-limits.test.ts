import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

/**
 * Issue 21 items 5 and 6 (docs/security.md "Web process limits"): the web process refuses request
 * targets that are not a path before any routing, and cuts off clients that hold a connection
 * without finishing their request. A server of its own, with short limits, talked to over raw
 * sockets (fetch would never send these requests).
 */
let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({
    extraEnv: {
      WEB_HEADERS_TIMEOUT_MS: "1500",
      WEB_REQUEST_TIMEOUT_MS: "3000",
      WEB_KEEP_ALIVE_TIMEOUT_MS: "1000",
      WEB_MAX_CONNECTIONS: "20",
    },
  });
  port = Number(new URL(server.baseUrl).port);
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

type Exchange = { text: string; closedAfterMs: number };

/** Opens a raw connection, lets `drive` write to it, and collects what the server sends until it closes. */
function rawExchange(drive: (socket: Socket) => void, giveUpMs = 15_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on("connect", () => drive(socket));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString("latin1"), closedAfterMs: Date.now() - started });
    });
  });
}

describe("issue 21 item 5: absolute-form request targets", () => {
  it("GET http://evil.example/admin/sign-in is refused 400 problem+json, never redirected to that host", async () => {
    const { text } = await rawExchange((s) =>
      s.write("GET http://evil.example/admin/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    );
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(text).toMatch(/content-type: application\/problem\+json/i);
    expect(text).toContain('"codeName":"license.validation_error"');
    expect(text).not.toMatch(/evil\.example/i);
  });

  it("a runtime path in absolute form is refused too (the lane never sees it)", async () => {
    const { text } = await rawExchange((s) =>
      s.write(
        "POST http://evil.example/api/v1/provision/activations/jwt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}",
      ),
    );
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
  });

  it("a path starting with // (another host to URL parsers) is refused", async () => {
    const { text } = await rawExchange((s) =>
      s.write("GET //evil.example/admin/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    );
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(text).not.toMatch(/location:/i);
  });

  it("an origin-form target is served as before", async () => {
    const { text } = await rawExchange((s) =>
      s.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    );
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
  });
});

describe("issue 21 item 6: web process limits", () => {
  it("a slow-body client (1 byte every 500 ms of a 1000-byte body) is answered 408 and cut off at WEB_REQUEST_TIMEOUT_MS", async () => {
    let drip: ReturnType<typeof setInterval> | undefined;
    const { text, closedAfterMs } = await rawExchange((s) => {
      s.write(
        "POST /api/v1/provision/activations/jwt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
      );
      drip = setInterval(() => {
        if (!s.destroyed) s.write(" ");
      }, 500);
    });
    clearInterval(drip);
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    // 3 s limit, checked every second: cut between 3 and 5 s, far from Node's default of 300 s.
    expect(closedAfterMs).toBeGreaterThanOrEqual(2_900);
    expect(closedAfterMs).toBeLessThan(5_500);
  }, 20_000);

  it("headers sent a few bytes at a time (slowloris) are cut off at WEB_HEADERS_TIMEOUT_MS", async () => {
    let drip: ReturnType<typeof setInterval> | undefined;
    const { text, closedAfterMs } = await rawExchange((s) => {
      s.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      drip = setInterval(() => {
        if (!s.destroyed) s.write("X-a: b\r\n");
      }, 300);
    });
    clearInterval(drip);
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_400);
    expect(closedAfterMs).toBeLessThan(3_500);
  }, 20_000);

  it("an idle keep-alive connection is closed after WEB_KEEP_ALIVE_TIMEOUT_MS", async () => {
    const { text, closedAfterMs } = await rawExchange((s) =>
      s.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    );
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(text).toMatch(/keep-alive: timeout=1/i);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(3_500);
  });

  it("connections beyond WEB_MAX_CONNECTIONS (20) are closed at once; the ones held keep working", async () => {
    const held: Socket[] = [];
    for (let i = 0; i < 20; i++) {
      const s = connect(port, "127.0.0.1");
      s.on("error", () => undefined);
      await new Promise((r) => s.once("connect", r));
      held.push(s);
    }
    try {
      // Let the server register all twenty before the twenty-first arrives.
      await new Promise((r) => setTimeout(r, 200));
      const extra = await rawExchange(
        (s) => s.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        5_000,
      );
      expect(extra.text).toBe("");
      const answered = await new Promise<string>((resolve) => {
        const s = held[0];
        const chunks: Buffer[] = [];
        s.on("data", (c) => chunks.push(c));
        s.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
        s.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      });
      expect(answered.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
