"use client";

import { Dialog } from "../ui/dialog";
import { CopyButton } from "../ui/copy-button";
import "../identity/identity.css";

/** docs/api.md: a generated signing secret is shown once. */
export function SecretDialog({
  secret,
  title,
  onClose,
}: {
  secret: string;
  title: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          I have stored it
        </button>
      }
    >
      <p>
        This signing secret is shown <strong>once</strong>. Store it with the receiver: it verifies every
        delivery (Standard Webhooks).
      </p>
      <dl className="secret-list">
        <dt>Signing secret</dt>
        <dd>
          <code className="secret" data-testid="signing-secret">
            {secret}
          </code>{" "}
          <CopyButton value={secret} />
        </dd>
      </dl>
    </Dialog>
  );
}
