// The cluster's network (docs/operations.md "Cluster test"): one Linux bridge in the machine's own
// namespace and one network namespace per host, each joined to the bridge by a veth pair. The
// machine's side of the bridge (GATEWAY) is where PostgreSQL, HAProxy's backends' health checks and
// the webhook receiver are reached from the hosts; the hosts are reached from it by their addresses.
import { sh } from "./shell.ts";

// The cluster test's names; another test of this kind (tests/failover) picks its own with
// selectNetwork, so the two can run side by side and neither's cleanup removes the other's hosts.
let tag = "lc26";
export let BRIDGE = "lc26br0";
export let SUBNET_PREFIX = "10.226.0";
export let GATEWAY = `${SUBNET_PREFIX}.1`;

export function selectNetwork(name: string, subnetPrefix: string): void {
  tag = name;
  BRIDGE = `${name}br0`;
  SUBNET_PREFIX = subnetPrefix;
  GATEWAY = `${subnetPrefix}.1`;
}

export type HostNet = { name: string; namespace: string; address: string };

const vethOf = (index: number) => `${tag}v${index}`;

const ourNamespaces = () =>
  sh("ip", ["netns", "list"], { allowFail: true })
    .split("\n")
    .map((line) => line.split(" ")[0])
    .filter((name) => name.startsWith(`${tag}-`));

/** kill -9 of every process in this test's namespaces (a namespace outlives its name while they run). */
export function killNamespaces(): void {
  for (const name of ourNamespaces())
    for (const pid of pidsIn(name)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
}

/** Removes this test's namespaces (their processes first) and bridge, also what a run that died left. */
export function removeNetwork(): void {
  killNamespaces();
  for (const name of ourNamespaces()) sh("ip", ["netns", "del", name], { allowFail: true });
  sh("ip", ["link", "del", BRIDGE], { allowFail: true });
}

/** Creates the bridge and one namespace per host name, addresses GATEWAY+10, +11, … in order. */
export function createNetwork(hostNames: string[]): HostNet[] {
  removeNetwork();
  sh("ip", ["link", "add", BRIDGE, "type", "bridge"]);
  sh("ip", ["addr", "add", `${GATEWAY}/24`, "dev", BRIDGE]);
  sh("ip", ["link", "set", BRIDGE, "up"]);
  return hostNames.map((name, i) => {
    const namespace = `${tag}-${name}`;
    const address = `${SUBNET_PREFIX}.${11 + i}`;
    const outside = vethOf(i);
    sh("ip", ["netns", "add", namespace]);
    sh("ip", ["link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", namespace]);
    sh("ip", ["link", "set", outside, "master", BRIDGE, "up"]);
    const inNs = (...args: string[]) => sh("ip", ["netns", "exec", namespace, "ip", ...args]);
    inNs("link", "set", "lo", "up");
    inNs("addr", "add", `${address}/24`, "dev", "eth0");
    inNs("link", "set", "eth0", "up");
    inNs("route", "add", "default", "via", GATEWAY);
    return { name, namespace, address };
  });
}

/** Process ids running in a host's namespace (the whole host: supervisor, web, Next.js, worker). */
export function pidsIn(namespace: string): number[] {
  return sh("ip", ["netns", "pids", namespace], { allowFail: true }).split("\n").filter(Boolean).map(Number);
}
