"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type ChangeEvent, type FormEvent } from "react";
import type {
  TOfflineActivationRequest,
  TOfflineActivationResponse,
} from "@/server/domain/licensing/offline/offline-artifact.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { CopyButton } from "../ui/copy-button";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDateTime } from "../ui/format";

const RESPONSE_FILE = "offline-response.json";
const wrap = { whiteSpace: "pre-wrap", wordBreak: "break-all" } as const;
const actions = { display: "flex", gap: "0.5rem", margin: "0.75rem 0" } as const;
// A link dressed as a primary button: keep its text readable under the global `a:hover` colour.
const linkButton = { color: "var(--accent-text)" } as const;

type LicenseSummary = {
  entitlementName?: string;
  sessionId?: string;
  state?: string;
  leaseExpiresAt?: string;
  deviceFingerprintHash?: string;
};

/** What the signed payload says, for the operator's eyes only (the importer verifies the signature first). */
function summaryOf(response: TOfflineActivationResponse): LicenseSummary | null {
  try {
    const base64 = response.signedPayload.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as LicenseSummary;
  } catch {
    return null;
  }
}

/**
 * The offline issue (docs/api.md "Operational"): paste or load an air-gapped device's request
 * artifact, issue through the same domain function as the REST endpoint, download the response.
 */
export function OfflineActivationForm() {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const [parseProblem, setParseProblem] = useState<ProblemJson | null>(null);
  const issue = useMutation(trpc.offlineActivations.issue.mutationOptions());
  const responseJson = issue.data ? `${JSON.stringify(issue.data, null, 2)}\n` : null;
  const downloadUrl = useMemo(
    () => (responseJson ? URL.createObjectURL(new Blob([responseJson], { type: "application/json" })) : null),
    [responseJson],
  );
  useEffect(
    () => () => {
      if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    },
    [downloadUrl],
  );
  const summary = issue.data ? summaryOf(issue.data) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    issue.reset();
    setParseProblem(null);
    let artifact: unknown;
    try {
      artifact = JSON.parse(text);
    } catch {
      setParseProblem(
        validationProblem([{ path: ["artifact"], message: "The request artifact is not valid JSON." }]),
      );
      return;
    }
    // The server validates the artifact (schemaVersion, nonce, fields) and answers its problem.
    issue.mutate(artifact as TOfflineActivationRequest);
  }

  async function load(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  }

  return (
    <>
      <form className="panel form" onSubmit={submit} aria-label="Issue an offline activation">
        <Field
          label="Request artifact (JSON)"
          htmlFor="offline-request"
          hint="The file the application wrote on the offline device: { meta: { schemaVersion, nonce, requestedAt, sdkVersion }, body: { activationCode, fingerprint, … } }."
        >
          <textarea
            id="offline-request"
            rows={12}
            className="mono"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder='{"meta": {"schemaVersion": 1, …}, "body": {"activationCode": "…", "fingerprint": "…"}}'
            required
          />
        </Field>
        <Field label="Or load the request file" htmlFor="offline-request-file">
          <input id="offline-request-file" type="file" accept="application/json,.json" onChange={load} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={issue.isPending}>
          {issue.isPending ? "Issuing…" : "Issue response artifact"}
        </button>
      </form>
      <ProblemAlert problem={parseProblem ?? problemFrom(issue.error)} />
      {issue.data && responseJson && downloadUrl ? (
        <div className="panel" role="status" data-testid="offline-response">
          <strong>Response artifact issued.</strong>
          {summary ? (
            <p>
              {summary.entitlementName} · session <code>{summary.sessionId}</code> · {summary.state} · valid
              until {formatDateTime(summary.leaseExpiresAt ?? null)}
            </p>
          ) : null}
          <p className="muted small">
            Carry this file back to the device. It is signed with the tenant key <code>{issue.data.kid}</code>{" "}
            (published in the tenant JWKS).
          </p>
          <div style={actions}>
            <a className="btn btn-primary" style={linkButton} href={downloadUrl} download={RESPONSE_FILE}>
              Download {RESPONSE_FILE}
            </a>
            <CopyButton value={responseJson} label="Copy JSON" />
          </div>
          <pre className="json" style={wrap} data-testid="offline-response-json">
            {responseJson}
          </pre>
        </div>
      ) : null}
    </>
  );
}
