"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom } from "../ui/problem";

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** `path=value` lines ↔ the attributeEquality map. */
function parseEquality(text: string): Record<string, string> {
  return Object.fromEntries(
    lines(text).map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    }),
  );
}

/** Creates a subscription (Http or Capture) or edits one; the kind is fixed once created. */
export function SubscriptionFormDialog({
  subscription,
  onClose,
  onCreated,
}: {
  subscription?: TSubscriptionResponse;
  onClose: () => void;
  onCreated?: (created: TSubscriptionResponse & { secret: string | null }) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const eventTypes = useQuery(trpc.webhooks.eventTypes.queryOptions());
  const callbackScopes = useQuery(trpc.webhooks.callbackScopes.queryOptions());
  const editing = !!subscription;
  const [targetKind, setTargetKind] = useState<"Http" | "Capture">(subscription?.targetKind ?? "Http");
  const [displayName, setDisplayName] = useState(subscription?.displayName ?? "");
  const [url, setUrl] = useState(subscription?.url ?? "");
  const [all, setAll] = useState(subscription ? subscription.eventTypePatterns.includes("*") : true);
  const [types, setTypes] = useState<string[]>(
    subscription?.eventTypePatterns.filter((p) => p !== "*") ?? [],
  );
  const [entityKinds, setEntityKinds] = useState(subscription?.filters?.entityKinds?.join("\n") ?? "");
  const [severities, setSeverities] = useState(subscription?.filters?.severities?.join("\n") ?? "");
  const [equality, setEquality] = useState(
    Object.entries(subscription?.filters?.attributeEquality ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
  );
  const [scopes, setScopes] = useState<string[]>(subscription?.callbackScopes ?? []);

  const done = async () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (created) => {
        await done();
        onCreated?.(created);
      },
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        await done();
        onClose();
      },
    }),
  );
  const problem = problemFrom(create.error ?? update.error);
  const busy = create.isPending || update.isPending;

  const filters = () => {
    const value = {
      ...(lines(entityKinds).length ? { entityKinds: lines(entityKinds) } : {}),
      ...(lines(severities).length ? { severities: lines(severities) } : {}),
      ...(lines(equality).length ? { attributeEquality: parseEquality(equality) } : {}),
    };
    return Object.keys(value).length ? value : null;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const eventTypePatterns = all ? ["*"] : types;
    const capture = targetKind === "Capture";
    if (editing) {
      const f = filters();
      update.mutate({
        id: subscription.id,
        patch: {
          displayName,
          eventTypePatterns,
          ...(capture ? {} : { url, callbackScopes: scopes }),
          ...(f ? { filters: f } : { clearFilters: true }),
          revisionNumber: subscription.revisionNumber,
        },
      });
    } else {
      create.mutate({
        targetKind,
        displayName,
        eventTypePatterns,
        filters: filters(),
        ...(capture ? {} : { url, callbackScopes: scopes }),
      });
    }
  };

  const toggle = (list: string[], set: (v: string[]) => void, value: string) =>
    set(list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

  return (
    <Dialog
      open
      wide
      title={editing ? `Edit ${subscription.displayName}` : "New webhook subscription"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="subscription-form" className="btn btn-primary" disabled={busy}>
            {busy ? "Saving…" : editing ? "Save" : "Create subscription"}
          </button>
        </>
      }
    >
      <form id="subscription-form" className="form" onSubmit={submit}>
        <ProblemAlert problem={problem} />
        <div className="form-grid">
          <Field
            label="Kind"
            htmlFor="wh-kind"
            hint={
              targetKind === "Capture"
                ? "Records matching events for inspection; sends nothing."
                : "POSTs signed CloudEvents to your endpoint after verification."
            }
          >
            <select
              id="wh-kind"
              value={targetKind}
              disabled={editing}
              onChange={(e) => setTargetKind(e.target.value as "Http" | "Capture")}
            >
              <option value="Http">Http endpoint</option>
              <option value="Capture">Capture (viewer only)</option>
            </select>
          </Field>
          <Field label="Display name" htmlFor="wh-name" error={fieldError(problem, "displayName")}>
            <input
              id="wh-name"
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              required
              maxLength={200}
            />
          </Field>
        </div>
        {targetKind === "Http" ? (
          <Field
            label="Endpoint URL"
            htmlFor="wh-url"
            hint="A public https URL; changing it needs a new verification."
            error={fieldError(problem, "url")}
          >
            <input
              id="wh-url"
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/webhooks"
              required
            />
          </Field>
        ) : null}
        <fieldset className="form-section">
          <legend>Event types</legend>
          <label className="checkbox">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All event types
            (*), including types added later
          </label>
          {all ? null : (
            <div className="check-grid" role="group" aria-label="Event types">
              {(eventTypes.data ?? [])
                .filter((t) => t.subscribable)
                .map((t) => (
                  <label key={t.type} className="checkbox">
                    <input
                      type="checkbox"
                      checked={types.includes(t.type)}
                      onChange={() => toggle(types, setTypes, t.type)}
                    />{" "}
                    <code>{t.type}</code>
                  </label>
                ))}
            </div>
          )}
        </fieldset>
        <fieldset className="form-section">
          <legend>Filters (optional; an event must pass every filter set)</legend>
          <div className="form-grid">
            <Field
              label="Entity kinds"
              htmlFor="wh-kinds"
              hint="One per line, e.g. entitlement, monitored-asset"
            >
              <textarea
                id="wh-kinds"
                rows={2}
                value={entityKinds}
                onChange={(e) => setEntityKinds(e.target.value)}
              />
            </Field>
            <Field label="Severities" htmlFor="wh-severities" hint="Overage events only; one per line">
              <textarea
                id="wh-severities"
                rows={2}
                value={severities}
                onChange={(e) => setSeverities(e.target.value)}
              />
            </Field>
          </div>
          <Field
            label="Attribute equality"
            htmlFor="wh-equality"
            hint="One path=value per line (dot paths into data, exact case), e.g. billing.provider=stripe"
          >
            <textarea
              id="wh-equality"
              rows={3}
              value={equality}
              onChange={(e) => setEquality(e.target.value)}
            />
          </Field>
        </fieldset>
        {targetKind === "Http" ? (
          <fieldset className="form-section">
            <legend>Callback scopes (optional)</legend>
            <p className="muted small">
              Each delivery then carries a 5-minute token with exactly these scopes, usable as a bearer token
              against the API.
            </p>
            <div className="check-grid" role="group" aria-label="Callback scopes">
              {(callbackScopes.data ?? []).map((scope) => (
                <label key={scope} className="checkbox">
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={() => toggle(scopes, setScopes, scope)}
                  />{" "}
                  <code>{scope}</code>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
      </form>
    </Dialog>
  );
}
