"use client";

import type { ReactNode } from "react";
import { Dialog } from "../dialog";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";

/**
 * Asks before an irreversible action (publish, delete, release, reset, grant) and says what will
 * happen: `consequences` are listed as plain sentences. A refusal shows as the catalogue's
 * sentence. The confirm button names the action ("Publish plan set"), never "OK".
 */
export function ConfirmDialog({
  open,
  title,
  children,
  consequences,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  consequences?: string[];
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  /** The mutation's error (any shape problemFrom reads), shown in plain words. */
  error?: unknown;
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
      <ProblemAlert problem={problemFrom(error)} />
      {children}
      {consequences?.length ? (
        <ul className="confirm-consequences">
          {consequences.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}
