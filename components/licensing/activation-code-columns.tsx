"use client";

import Link from "next/link";
import type { TActivationCodeResponse } from "@/server/domain/licensing/activation-codes/activation-code.schemas";
import type { Column } from "../ui/data-table";
import { CopyButton } from "../ui/copy-button";
import { formatDateTime } from "../ui/format";

/**
 * The activation code list's columns: a checkbox for bulk revocation, the code to copy, its
 * entitlement (unless the list is one entitlement's), status, devices, sequence, issue date, Revoke.
 */
export function activationCodeColumns({
  selected,
  onSelect,
  entitlementNames,
  onRevoke,
}: {
  selected: string[];
  onSelect: (ids: string[]) => void;
  /** Null when the list shows one entitlement's codes: no entitlement column. */
  entitlementNames: Map<string, string> | null;
  onRevoke: (code: TActivationCodeResponse) => void;
}): Column<TActivationCodeResponse>[] {
  return [
    {
      key: "select",
      header: "",
      render: (c) =>
        c.status === "Revoked" ? null : (
          <input
            type="checkbox"
            aria-label={`Select ${c.code}`}
            checked={selected.includes(c.id)}
            onChange={(e) =>
              onSelect(e.target.checked ? [...selected, c.id] : selected.filter((id) => id !== c.id))
            }
          />
        ),
    },
    {
      key: "code",
      header: "Code",
      sortField: "code",
      render: (c) => (
        <span className="row-actions">
          <code data-testid="activation-code">{c.code}</code>
          <CopyButton value={c.code} />
        </span>
      ),
    },
    ...(entitlementNames
      ? [
          {
            key: "entitlement",
            header: "Entitlement",
            render: (c: TActivationCodeResponse) => (
              <Link href={`/admin/entitlements/${c.entitlementId}`}>
                {entitlementNames.get(c.entitlementId) ?? "entitlement"}
              </Link>
            ),
          },
        ]
      : []),
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (c) => (
        <span className={`badge${c.status === "Revoked" ? " badge-muted" : ""}`}>{c.status}</span>
      ),
    },
    {
      key: "devices",
      header: "Devices",
      align: "right",
      render: (c) => `${c.devicesInUse} / ${c.deviceLimit ?? "∞"}`,
    },
    {
      key: "sequence",
      header: "Seq.",
      sortField: "sequenceNumber",
      align: "right",
      render: (c) => c.sequenceNumber ?? "—",
    },
    { key: "created", header: "Issued", sortField: "createdAt", render: (c) => formatDateTime(c.createdAt) },
    {
      key: "actions",
      header: "",
      render: (c) =>
        c.status === "Revoked" ? (
          <span className="muted small">revoked {formatDateTime(c.revokedAt)}</span>
        ) : (
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => onRevoke(c)}>
            Revoke
          </button>
        ),
    },
  ];
}
