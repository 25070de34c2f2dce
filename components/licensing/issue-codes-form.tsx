"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  ZActivationCodeIssueRequest,
  type TActivationCodeIssueRequest,
  type TActivationCodeResponse,
} from "@/server/domain/licensing/activation-codes/activation-code.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { CopyButton } from "../ui/copy-button";
import { Field } from "../ui/field";
import { Form, NumberField, useSchemaForm } from "../ui/form";
import { formatCountOf } from "../ui/format";
import { CustomerPicker, EntitlementPicker } from "../entitlements/pickers";

type Values = { count: number | null; deviceLimit: number | null };

/**
 * Issues activation codes for an entitlement (following its keyIssuancePolicy) and lists the new
 * codes to copy. Without `entitlementId` the entitlement is picked, directly or through its customer.
 */
export function IssueCodesForm({
  entitlementId: fixedEntitlementId,
  onIssued,
}: {
  entitlementId?: string;
  onIssued: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const [issueFor, setIssueFor] = useState(fixedEntitlementId ?? "");
  const [customerId, setCustomerId] = useState("");
  const [issued, setIssued] = useState<TActivationCodeResponse[]>([]);
  const form = useSchemaForm<Values, TActivationCodeIssueRequest>(ZActivationCodeIssueRequest, {
    defaultValues: { count: 1, deviceLimit: null },
  });
  const issue = useMutation(
    trpc.licensing.issueActivationCodes.mutationOptions({
      onSuccess: async (result) => {
        setIssued(result.codes);
        await onIssued();
      },
      onError: form.showProblem,
    }),
  );
  const customerEntitlements = useQuery({
    ...trpc.entitlements.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      filter: `customerId==${customerId}`,
      sortOrder: "name",
    }),
    enabled: Boolean(customerId) && !fixedEntitlementId,
  });

  return (
    <>
      <Form
        form={form}
        id="issue"
        className="panel form"
        label="Issue activation codes"
        onSubmit={(request) => {
          issue.reset();
          setIssued([]);
          issue.mutate({ entitlementId: issueFor, ...request });
        }}
      >
        {fixedEntitlementId ? null : (
          <>
            <CustomerPicker
              label="Customer"
              value={customerId}
              onChange={(id) => {
                setCustomerId(id);
                setIssueFor("");
              }}
            />
            {customerId ? (
              <Field label="Entitlement" htmlFor="issue-entitlement">
                <select id="issue-entitlement" value={issueFor} onChange={(e) => setIssueFor(e.target.value)}>
                  <option value="">
                    {customerEntitlements.data?.items.length === 0
                      ? "This customer has no entitlements yet"
                      : "Choose an entitlement"}
                  </option>
                  {(customerEntitlements.data?.items ?? []).map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : (
              <EntitlementPicker label="Entitlement" value={issueFor} onChange={setIssueFor} />
            )}
          </>
        )}
        <NumberField name="count" label="Count" unit="codes" />
        <NumberField
          name="deviceLimit"
          label="Device limit per code"
          unit="devices"
          emptyAs={null}
          hint="Empty = no per-code limit."
        />
        <button type="submit" className="btn btn-primary" disabled={issue.isPending || !issueFor}>
          {issue.isPending ? "Issuing…" : "Issue codes"}
        </button>
      </Form>
      {issued.length ? (
        <div className="panel" role="status" data-testid="issued-codes">
          <strong>Issued {formatCountOf(issued.length, "code")}:</strong>
          <ul>
            {issued.map((c) => (
              <li key={c.id} className="row-actions">
                <code>{c.code}</code> <CopyButton value={c.code} />
              </li>
            ))}
          </ul>
          {issued.length > 1 ? (
            <CopyButton value={issued.map((c) => c.code).join("\n")} label="Copy all" />
          ) : null}
        </div>
      ) : null}
    </>
  );
}
