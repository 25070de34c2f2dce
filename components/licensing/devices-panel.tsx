"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TDeviceResponse } from "@/server/domain/licensing/devices/device.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter } from "../ui/list-controls";
import { sieveValue } from "../ui/sieve";

type Confirm =
  | { kind: "reset" }
  | { kind: "block" | "unblock"; device: TDeviceResponse }
  | { kind: "block-fingerprint"; fingerprint: string }
  | null;

/** An entitlement's devices: transfer count, reset all, block (by device or fingerprint), unblock. */
export function DevicesPanel({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    key: "devices",
    sort: { field: "createdAt", descending: false },
    filters: { name: "", blocked: false },
    terms: (f) => [f.name && `deviceName@=*${sieveValue(f.name)}`, f.blocked && "isBlocked==true"],
  });
  const [fingerprint, setFingerprint] = useState("");
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [lastReset, setLastReset] = useState<{ devicesReset: number; transferCount: number } | null>(null);

  const devices = useQuery({
    ...trpc.licensing.listDevices.queryOptions({ ...view.query, entitlementId }),
    placeholderData: keepPreviousData,
  });
  const transfer = useQuery(trpc.licensing.transferCount.queryOptions({ entitlementId }));
  const refresh = async () => {
    setConfirm(null);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.licensing.listDevices.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.licensing.transferCount.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.licensing.listActivationCodes.pathKey() }),
    ]);
  };
  const reset = useMutation(
    trpc.licensing.resetDevices.mutationOptions({
      onSuccess: async (r) => {
        setLastReset(r);
        await refresh();
      },
    }),
  );
  const block = useMutation(
    trpc.licensing.blockDevice.mutationOptions({
      onSuccess: async () => {
        setFingerprint("");
        await refresh();
      },
    }),
  );
  const unblock = useMutation(trpc.licensing.unblockDevice.mutationOptions({ onSuccess: refresh }));
  const busy = reset.isPending || block.isPending || unblock.isPending;
  const problem = problemFrom(reset.error ?? block.error ?? unblock.error);

  const open = (next: Confirm) => {
    reset.reset();
    block.reset();
    unblock.reset();
    setConfirm(next);
  };

  function submitFingerprint(event: FormEvent) {
    event.preventDefault();
    if (fingerprint.trim()) open({ kind: "block-fingerprint", fingerprint: fingerprint.trim() });
  }

  const columns: Column<TDeviceResponse>[] = [
    {
      key: "name",
      header: "Device",
      sortField: "deviceName",
      render: (d) => d.deviceName ?? <span className="muted">unnamed</span>,
    },
    {
      key: "hash",
      header: "Fingerprint hash",
      render: (d) => (
        <code className="small" title={d.deviceFingerprintHash}>
          {d.deviceFingerprintHash.slice(0, 16)}…
        </code>
      ),
    },
    { key: "sessions", header: "Active sessions", align: "right", render: (d) => d.activeSessionCount },
    {
      key: "state",
      header: "State",
      render: (d) =>
        d.isBlocked ? (
          <span className="badge badge-danger">Blocked</span>
        ) : (
          <span className="badge">Allowed</span>
        ),
    },
    {
      key: "created",
      header: "First seen",
      sortField: "createdAt",
      render: (d) => formatDateTime(d.createdAt),
    },
    {
      key: "actions",
      header: "",
      render: (d) =>
        d.isBlocked ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => open({ kind: "unblock", device: d })}
          >
            Unblock
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => open({ kind: "block", device: d })}
          >
            Block
          </button>
        ),
    },
  ];

  const title =
    confirm?.kind === "reset"
      ? "Reset every device?"
      : confirm?.kind === "block"
        ? "Block this device?"
        : confirm?.kind === "block-fingerprint"
          ? "Block this fingerprint?"
          : confirm?.kind === "unblock"
            ? "Unblock this device?"
            : "";

  return (
    <section aria-label="Devices">
      <div className="toolbar">
        <span data-testid="transfer-count">
          Transfer count: <strong>{transfer.data?.transferCount ?? "…"}</strong>
        </span>
        {lastReset ? (
          <span className="muted" role="status">
            Last reset ended {formatCountOf(lastReset.devicesReset, "activation")}.
          </span>
        ) : null}
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-danger" onClick={() => open({ kind: "reset" })}>
          Reset all devices
        </button>
      </div>
      <form className="panel form" onSubmit={submitFingerprint} aria-label="Block a fingerprint">
        <Field label="Block by fingerprint" htmlFor="block-fingerprint" hint="Only its SHA-256 hash is kept.">
          <input
            id="block-fingerprint"
            value={fingerprint}
            onChange={(e) => setFingerprint(e.target.value)}
            autoComplete="off"
          />
        </Field>
        <button type="submit" className="btn">
          Block fingerprint
        </button>
      </form>
      <ProblemAlert problem={problemFrom(devices.error ?? transfer.error)} />
      <div className="toolbar">
        <SearchFilter view={view} name="name" label="Filter devices by name" placeholder="Device name…" />
        <CheckboxFilter view={view} name="blocked">
          Blocked only
        </CheckboxFilter>
      </div>
      <ListTable
        view={view}
        list={devices}
        caption="Devices"
        columns={columns}
        rowKey={(d) => d.id}
        empty={
          view.settled.name || view.settled.blocked
            ? "No device matches the filters."
            : "No device has activated this entitlement."
        }
      />
      <ConfirmDialog
        open={confirm !== null}
        title={title}
        confirmLabel={
          confirm?.kind === "reset" ? "Reset devices" : confirm?.kind === "unblock" ? "Unblock" : "Block"
        }
        danger={confirm?.kind !== "unblock"}
        busy={busy}
        problem={problem}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm?.kind === "reset") reset.mutate({ entitlementId });
          else if (confirm?.kind === "block") block.mutate({ entitlementId, deviceId: confirm.device.id });
          else if (confirm?.kind === "block-fingerprint")
            block.mutate({ entitlementId, fingerprint: confirm.fingerprint });
          else if (confirm?.kind === "unblock")
            unblock.mutate({ entitlementId, deviceId: confirm.device.id });
        }}
      >
        {confirm?.kind === "reset" ? (
          <p>
            Every activation ends the next time its device contacts the service, every seat is freed, the
            activation codes&apos; device usage empties and the transfer count goes up by one.
          </p>
        ) : confirm?.kind === "unblock" ? (
          <p>
            The device may activate again, as a new activation; the activations the block ended do not return.
          </p>
        ) : (
          <p>
            The device&apos;s current activations end and no activation will admit it until it is unblocked.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
