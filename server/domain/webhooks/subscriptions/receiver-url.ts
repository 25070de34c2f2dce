import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "../../../core/errors.ts";

/**
 * docs/api.md Subscriptions rule 6 and docs/architecture.md section 7: receivers must be public https endpoints.
 * Checked when a URL is set (after DNS resolution) and again at every delivery, where the
 * connection goes only to addresses that passed the check (DNS rebinding).
 */

// One list per family: Node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules.
const nonPublicV4 = new BlockList();
const nonPublicV6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata endpoints live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  nonPublicV4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::ffff:0:0", 96], // IPv4-mapped
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96], // NAT64: may reach private IPv4
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: may embed private IPv4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  nonPublicV6.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is anything but a public unicast address. Not an address at all: true. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? nonPublicV4.check(address, "ipv4") : nonPublicV6.check(address, "ipv6");
}

/** Host names that only mean something inside a network (RFC 6761, RFC 8375 and common private suffixes). */
const internalSuffixes = [
  "localhost",
  "local",
  "internal",
  "intranet",
  "localdomain",
  "lan",
  "home",
  "corp",
  "private",
  "home.arpa",
  "test",
  "invalid",
  "onion",
];

export function isInternalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (!name.includes(".")) return true; // single-label names resolve through search domains
  return internalSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type ReceiverUrlOptions = { allowPrivate: boolean; resolve?: Resolver };

const refused = (detail: string) =>
  new AppError("subscription.invalid_url", detail, { issues: [{ path: "body.url", message: detail }] });

/** The URL's host without IPv6 brackets and without a trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/** Syntax, scheme, credentials and host-name checks that need no DNS. Returns the parsed URL. */
export function checkReceiverUrlShape(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("The URL is not a valid absolute URL.");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivate)) {
    throw refused(
      url.protocol === "http:"
        ? "Plain http is refused; receivers must use https."
        : `The ${url.protocol} scheme is refused; receivers must use https.`,
    );
  }
  if (url.username || url.password)
    throw refused("Credentials in the URL are refused; authenticate deliveries by their signature.");
  const host = hostOf(url);
  if (!host) throw refused("The URL has no host.");
  if (!allowPrivate) {
    if (isIP(host)) {
      if (isNonPublicAddress(host))
        throw refused(
          `${host} is not a public address (loopback, private, link-local and other internal ranges are refused).`,
        );
    } else if (isInternalHostName(host)) {
      throw refused(`${host} is an internal host name; receivers must have a public DNS name.`);
    }
  }
  return url;
}

/**
 * Resolves a host name and refuses it unless every address is public. Returns the addresses.
 * With `allowPrivate` (tests only) every address passes.
 */
export async function resolvePublicAddresses(host: string, options: ReceiverUrlOptions): Promise<string[]> {
  if (isIP(host)) {
    if (!options.allowPrivate && isNonPublicAddress(host)) throw refused(`${host} is not a public address.`);
    return [host];
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    throw refused(`${host} does not resolve.`);
  }
  if (addresses.length === 0) throw refused(`${host} does not resolve.`);
  const internal = addresses.filter(isNonPublicAddress);
  if (internal.length && !options.allowPrivate) {
    throw refused(`${host} resolves to ${internal.join(", ")}, which is not a public address.`);
  }
  return addresses;
}

/** The full check of a URL being set on a subscription (create and PATCH). Returns the normalised URL. */
export async function assertReceiverUrl(raw: string, options: ReceiverUrlOptions): Promise<string> {
  const url = checkReceiverUrlShape(raw, options.allowPrivate);
  await resolvePublicAddresses(hostOf(url), options);
  return url.toString();
}
