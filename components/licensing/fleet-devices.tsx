"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TDeviceResponse } from "@/server/domain/licensing/devices/device.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import {
  CustomerPicker,
  EntitlementPicker,
  ProductSearchPicker,
  useEntitlementNames,
} from "../entitlements/pickers";

type Verb = "deactivate" | "block" | "unblock";
type Pending = { verb: Verb; devices: TDeviceResponse[] } | null;

const DAY_MS = 86_400_000;
const verbs: Record<Verb, { title: string; confirm: string; text: string }> = {
  deactivate: {
    title: "Deactivate",
    confirm: "Deactivate",
    text: "Its sessions end at their next contact and their seats are free at once. It counts as a transfer on its entitlement, like a reset; the device may activate again.",
  },
  block: {
    title: "Block",
    confirm: "Block",
    text: "Its sessions end and no activation admits it until it is unblocked.",
  },
  unblock: {
    title: "Unblock",
    confirm: "Unblock",
    text: "It may activate again, as a new activation; the sessions the block ended do not return.",
  },
};

/** The ISO timestamp `days` ago, at the start of that minute (stable within a render). */
const daysAgo = (days: number) =>
  new Date(Math.floor(Date.now() / 60_000) * 60_000 - days * DAY_MS).toISOString();

/**
 * Every device of the tenant: found by name, fingerprint hash prefix, entitlement, customer or
 * product; filtered by state and last contact; deactivated, blocked or unblocked one by one or as a selection.
 */
export function FleetDevices() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", hash: "", entitlementId: "", customerId: "", productId: "", state: "", seen: "" },
    sort: { field: "createdAt", descending: true },
    terms: (f) => [
      f.q && `deviceName@=*${sieveValue(f.q)}`,
      f.hash && `deviceFingerprintHash_=${sieveValue(f.hash.toLowerCase())}`,
      f.entitlementId && `entitlementId==${f.entitlementId}`,
      f.state === "blocked" && "isBlocked==true",
      f.state === "allowed" && "isBlocked==false",
      f.seen === "7d" && `lastSeenAt>=${daysAgo(7)}`,
      f.seen === "stale" && `lastSeenAt<${daysAgo(30)}`,
    ],
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [pending, setPending] = useState<Pending>(null);
  const list = useQuery({
    ...trpc.licensing.listAllDevices.queryOptions({
      ...view.query,
      // Not device columns, so not Sieve terms: the procedure resolves them to entitlements.
      customerId: view.settled.customerId || undefined,
      productId: view.settled.productId || undefined,
    }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.items ?? [];
  const names = useEntitlementNames(rows.map((d) => d.entitlementId));
  const deactivate = useMutation(trpc.licensing.deactivateDevice.mutationOptions());
  const block = useMutation(trpc.licensing.blockDevice.mutationOptions());
  const unblock = useMutation(trpc.licensing.unblockDevice.mutationOptions());
  const act = useMutation({
    // One audited call per device, in order; a refusal stops the rest and is shown.
    mutationFn: async ({ verb, devices }: NonNullable<Pending>) => {
      for (const d of devices) {
        const input = { entitlementId: d.entitlementId, deviceId: d.id };
        if (verb === "deactivate") await deactivate.mutateAsync(input);
        else if (verb === "block") await block.mutateAsync(input);
        else await unblock.mutateAsync(input);
      }
    },
    onSuccess: async () => {
      setPending(null);
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey: trpc.licensing.pathKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.sessions.pathKey() });
    },
  });
  const ask = (verb: Verb, devices: TDeviceResponse[]) => {
    act.reset();
    setPending({ verb, devices });
  };
  const chosen = rows.filter((d) => selected.includes(d.id));

  const columns: Column<TDeviceResponse>[] = [
    {
      key: "select",
      header: "",
      render: (d) => (
        <input
          type="checkbox"
          aria-label={`Select ${d.deviceName ?? "unnamed device"}`}
          checked={selected.includes(d.id)}
          onChange={(e) =>
            setSelected(e.target.checked ? [...selected, d.id] : selected.filter((id) => id !== d.id))
          }
        />
      ),
    },
    {
      key: "name",
      header: "Device",
      sortField: "deviceName",
      render: (d) => (
        <span>
          {d.deviceName ?? <span className="muted">unnamed</span>}
          <br />
          <code className="small muted" title={d.deviceFingerprintHash}>
            {d.deviceFingerprintHash.slice(0, 12)}…
          </code>
        </span>
      ),
    },
    {
      key: "entitlement",
      header: "Entitlement",
      render: (d) => (
        <Link href={`/admin/entitlements/${d.entitlementId}?tab=seats`}>
          {names.get(d.entitlementId) ?? "entitlement"}
        </Link>
      ),
    },
    {
      key: "state",
      header: "State",
      render: (d) =>
        d.isBlocked ? (
          <span className="badge badge-danger">Blocked</span>
        ) : d.activeSessionCount > 0 ? (
          <span className="badge badge-ok">Active</span>
        ) : (
          <span className="badge badge-muted">Inactive</span>
        ),
    },
    { key: "sessions", header: "Active sessions", align: "right", render: (d) => d.activeSessionCount },
    {
      key: "seen",
      header: "Last seen",
      sortField: "lastSeenAt",
      render: (d) => formatDateTime(d.lastSeenAt),
    },
    {
      key: "actions",
      header: "",
      render: (d) => {
        const name = d.deviceName ?? "unnamed device";
        return (
          <span className="row-actions">
            {d.activeSessionCount > 0 ? (
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Deactivate ${name}`}
                onClick={() => ask("deactivate", [d])}
              >
                Deactivate
              </button>
            ) : null}
            {d.isBlocked ? (
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Unblock ${name}`}
                onClick={() => ask("unblock", [d])}
              >
                Unblock
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-small btn-danger-ghost"
                aria-label={`Block ${name}`}
                onClick={() => ask("block", [d])}
              >
                Block
              </button>
            )}
          </span>
        );
      },
    },
  ];

  const count = pending?.devices.length ?? 0;
  const subject =
    count === 1 ? (pending!.devices[0].deviceName ?? "this device") : formatCountOf(count, "device");
  return (
    <>
      <div className="toolbar toolbar-filters" role="search" aria-label="Device filters">
        <SearchFilter
          view={view}
          name="q"
          label="Search devices by name"
          placeholder="Device name…"
          style={{ width: 200 }}
          showLabel
        />
        <SearchFilter
          view={view}
          name="hash"
          label="Fingerprint hash starts with"
          placeholder="Hash prefix…"
          style={{ width: 180 }}
          showLabel
        />
        <EntitlementPicker
          label="Entitlement"
          value={view.values.entitlementId}
          onChange={(id) => view.set("entitlementId", id)}
        />
        <CustomerPicker
          label="Customer"
          value={view.values.customerId}
          onChange={(id) => view.set("customerId", id)}
        />
        <ProductSearchPicker
          label="Product"
          value={view.values.productId}
          onChange={(id) => view.set("productId", id)}
        />
        <SelectFilter
          view={view}
          name="state"
          label="State"
          any="Any state"
          options={[
            ["allowed", "Allowed"],
            ["blocked", "Blocked"],
          ]}
          showLabel
        />
        <SelectFilter
          view={view}
          name="seen"
          label="Last seen"
          any="Any time"
          options={[
            ["7d", "In the last 7 days"],
            ["stale", "Not for 30 days"],
          ]}
          showLabel
        />
      </div>
      {chosen.length ? (
        <div className="toolbar" role="region" aria-label="Selection">
          <strong>{chosen.length} selected</strong>
          <button type="button" className="btn btn-small" onClick={() => ask("deactivate", chosen)}>
            Deactivate selected
          </button>
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() =>
              ask(
                "block",
                chosen.filter((d) => !d.isBlocked),
              )
            }
          >
            Block selected
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected([])}>
            Clear selection
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Devices"
        columns={columns}
        rowKey={(d) => d.id}
        empty={view.isFiltered ? "No device matches these filters." : "No devices yet."}
      />
      <ConfirmDialog
        open={pending !== null}
        title={pending ? `${verbs[pending.verb].title} ${subject}?` : ""}
        confirmLabel={pending ? verbs[pending.verb].confirm : ""}
        danger={pending?.verb !== "unblock"}
        busy={act.isPending}
        problem={problemFrom(act.error)}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && act.mutate(pending)}
      >
        <p>{pending ? verbs[pending.verb].text : null}</p>
      </ConfirmDialog>
    </>
  );
}
