import { afterEach, describe, expect, it } from "vitest";
import { callerIp } from "../../server/core/caller-address.ts";
import { ipAllowed } from "../../server/domain/licensing/activation/ip-allowed.ts";
import { armPeerStamp, stampPeerAddress } from "../../server/web/peer-address.ts";

/** A request as the web entry hands it on: its headers stamped with the socket's address. */
const req = (headers: Record<string, string>) => {
  const { "x-licensing-peer-address": peer, ...rest } = headers;
  const incoming: Record<string, string | string[] | undefined> = { ...rest };
  if (peer !== undefined) stampPeerAddress(incoming, peer);
  return new Request("http://x/", { headers: incoming as Record<string, string> });
};
armPeerStamp();

describe("callerIp: the address allowedIpCidr is checked against", () => {
  afterEach(() => {
    delete process.env.TRUSTED_PROXY_HOPS;
  });

  it("without trusted proxies, only the TCP peer counts; a client's X-Forwarded-For is ignored", () => {
    expect(
      callerIp(req({ "x-licensing-peer-address": "198.51.100.7", "x-forwarded-for": "203.0.113.9" })),
    ).toBe("198.51.100.7");
  });

  it("with N trusted proxies, the N-th X-Forwarded-For entry from the right (what the outermost trusted proxy saw)", () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect(
      callerIp(
        req({ "x-licensing-peer-address": "10.0.0.2", "x-forwarded-for": "203.0.113.9, 198.51.100.7" }),
      ),
    ).toBe("198.51.100.7");
    process.env.TRUSTED_PROXY_HOPS = "2";
    expect(
      callerIp(
        req({
          "x-licensing-peer-address": "10.0.0.2",
          "x-forwarded-for": "203.0.113.9, 198.51.100.7, 10.0.0.9",
        }),
      ),
    ).toBe("198.51.100.7");
    expect(callerIp(req({ "x-licensing-peer-address": "10.0.0.2", "x-forwarded-for": "198.51.100.7" }))).toBe(
      "10.0.0.2",
    );
  });

  it("no stamped peer address (not started through the web entry) → unknown, so the policy refuses", () => {
    expect(callerIp(req({ "x-forwarded-for": "203.0.113.9" }))).toBeNull();
  });

  it("issue 11 item 10: a peer-address header the client sent itself (no stamp, or a guessed one) is unknown", () => {
    const forged = (headers: Record<string, string>) => new Request("http://x/", { headers });
    expect(callerIp(forged({ "x-licensing-peer-address": "203.0.113.9" }))).toBeNull();
    expect(
      callerIp(forged({ "x-licensing-peer-address": "203.0.113.9", "x-licensing-peer-stamp": "guess" })),
    ).toBeNull();
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect(
      callerIp(forged({ "x-licensing-peer-address": "10.0.0.2", "x-forwarded-for": "203.0.113.9" })),
    ).toBeNull();
  });
});

describe("ipAllowed", () => {
  it.each([
    ["203.0.113.5", ["203.0.113.0/24"], true],
    ["203.0.114.5", ["203.0.113.0/24"], false],
    ["::ffff:127.0.0.1", ["127.0.0.0/8"], true],
    ["::1", ["::1/128"], true],
    ["2001:db8::1", ["2001:db8::/32", "10.0.0.0/8"], true],
    ["not-an-ip", ["0.0.0.0/0"], false],
  ])("%s in %j → %s", (ip, cidrs, allowed) => {
    expect(ipAllowed(ip, cidrs)).toBe(allowed);
  });
});
