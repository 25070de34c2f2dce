"use client";

import type { ReactNode } from "react";
import { Dialog } from "./dialog";
import { ProblemAlert } from "./problem-alert";
import type { ProblemJson } from "./problem";

/** Asks before a destructive or irreversible action; shows the server's refusal if it fails. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger,
  busy,
  problem,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  problem?: ProblemJson | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {busy ? "Working…" : confirmLabel}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem ?? null} />
      {children}
    </Dialog>
  );
}
