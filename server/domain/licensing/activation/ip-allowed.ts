import { BlockList, isIPv4, isIPv6 } from "node:net";

/** Whether an address lies in one of the CIDR blocks of activationPolicy.allowedIpCidr (IPv4-mapped IPv6 counts as IPv4). */
export function ipAllowed(address: string, cidrs: string[]): boolean {
  const ip = address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = isIPv4(ip) ? "ipv4" : isIPv6(ip) ? "ipv6" : null;
  if (!family) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, bits] = cidr.split("/");
    const netFamily = isIPv4(network) ? "ipv4" : isIPv6(network) ? "ipv6" : null;
    if (netFamily) list.addSubnet(network, Number(bits), netFamily);
  }
  return list.check(ip, family);
}
