"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZRatingCampaignCreateRequest,
  ZRatingCampaignUpdateRequest,
  type TRatingCampaignResponse,
} from "@/server/domain/catalog/rating-campaigns/rating-campaign.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";
import { newKey } from "../../pricing/plan-set-form";

type TargetForm = { key: string; featureCatalogId: string; question: string; priority: string };

/** `datetime-local` shows local time; the API speaks UTC ISO 8601. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);

/** Creates or edits a rating campaign: window, targets (asked by priority, empty last) and offers. */
export function RatingCampaignDialog({
  campaign,
  onClose,
}: {
  campaign?: TRatingCampaignResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(campaign?.name ?? "");
  const [description, setDescription] = useState(campaign?.description ?? "");
  const [isEnabled, setIsEnabled] = useState(campaign?.isEnabled ?? true);
  const [startsAt, setStartsAt] = useState(toLocalInput(campaign?.startsAt ?? null));
  const [endsAt, setEndsAt] = useState(toLocalInput(campaign?.endsAt ?? null));
  const [targets, setTargets] = useState<TargetForm[]>(
    (campaign?.targets ?? []).map((t) => ({
      key: newKey(),
      featureCatalogId: t.featureCatalogId,
      question: t.question ?? "",
      priority: t.priority === null ? "" : String(t.priority),
    })),
  );
  const [offers, setOffers] = useState((campaign?.offers ?? []).map((o) => o.offerId).join("\n"));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const features = useQuery(trpc.planSets.featureOptions.queryOptions({ term: "" }));
  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.ratingCampaigns.pathKey() });
    onClose();
  };
  const create = useMutation(trpc.ratingCampaigns.create.mutationOptions({ onSuccess }));
  const update = useMutation(trpc.ratingCampaigns.update.mutationOptions({ onSuccess }));
  const mutation = campaign ? update : create;
  const problem = localProblem ?? problemFrom(mutation.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    const body = {
      name,
      description: description.trim() ? description : null,
      isEnabled,
      startsAt: fromLocalInput(startsAt),
      endsAt: fromLocalInput(endsAt),
      targets: targets.map((t) => ({
        featureCatalogId: t.featureCatalogId,
        question: t.question.trim() || null,
        priority: t.priority.trim() === "" ? null : Number(t.priority),
      })),
      offers: offers
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((offerId) => ({ offerId })),
    };
    if (campaign) {
      const parsed = ZRatingCampaignUpdateRequest.safeParse({
        ...body,
        revisionNumber: campaign.revisionNumber,
      });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      return update.mutate({ id: campaign.id, edit: parsed.data });
    }
    const parsed = ZRatingCampaignCreateRequest.safeParse(body);
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }
  const setTarget = (i: number, patch: Partial<TargetForm>) =>
    setTargets(targets.map((t, j) => (j === i ? { ...t, ...patch } : t)));

  return (
    <Dialog
      open
      wide
      title={campaign ? `Edit “${campaign.name}”` : "New rating campaign"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="campaign-form"
            className="btn btn-primary"
            disabled={mutation.isPending}
          >
            {mutation.isPending ? "Saving…" : campaign ? "Save" : "Create campaign"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="campaign-form" className="form pricing" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Name" htmlFor="campaign-name" error={fieldError(problem, "name")}>
            <input id="campaign-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Enabled" htmlFor="campaign-enabled">
            <label className="checkbox">
              <input
                id="campaign-enabled"
                type="checkbox"
                checked={isEnabled}
                onChange={(e) => setIsEnabled(e.target.checked)}
              />{" "}
              Ask while inside the window
            </label>
          </Field>
        </div>
        <Field label="Description" htmlFor="campaign-description">
          <textarea
            id="campaign-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <div className="grid-2">
          <Field
            label="Starts"
            htmlFor="campaign-starts"
            hint="Empty: already started."
            error={fieldError(problem, "startsAt")}
          >
            <input
              id="campaign-starts"
              type="datetime-local"
              value={startsAt}
              onChange={(e) => setStartsAt(e.target.value)}
            />
          </Field>
          <Field
            label="Ends"
            htmlFor="campaign-ends"
            hint="Empty: runs until disabled."
            error={fieldError(problem, "endsAt")}
          >
            <input
              id="campaign-ends"
              type="datetime-local"
              value={endsAt}
              onChange={(e) => setEndsAt(e.target.value)}
            />
          </Field>
        </div>
        <Field
          label="Targets"
          hint="Lower priority is asked first; an empty priority is asked last (by recent usage). An empty question uses the generic prompt."
          error={fieldError(problem, "targets")}
        >
          {targets.length ? (
            <table className="value-table" aria-label="Targets">
              <thead>
                <tr>
                  <th>Feature</th>
                  <th>Question</th>
                  <th>Priority</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {targets.map((t, i) => (
                  <tr key={t.key}>
                    <td>
                      <select
                        aria-label="Target feature"
                        value={t.featureCatalogId}
                        onChange={(e) => setTarget(i, { featureCatalogId: e.target.value })}
                      >
                        {(features.data ?? []).some((f) => f.id === t.featureCatalogId) ? null : (
                          <option value={t.featureCatalogId}>
                            {campaign?.targets.find((x) => x.featureCatalogId === t.featureCatalogId)
                              ?.featureName ?? "Unknown feature"}
                          </option>
                        )}
                        {(features.data ?? []).map((f) => (
                          <option key={f.id} value={f.id}>
                            {f.name} ({f.featureCode})
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <input
                        aria-label="Question"
                        value={t.question}
                        onChange={(e) => setTarget(i, { question: e.target.value })}
                        placeholder="generic prompt"
                      />
                    </td>
                    <td style={{ width: 100 }}>
                      <input
                        aria-label="Priority"
                        inputMode="numeric"
                        value={t.priority}
                        onChange={(e) => setTarget(i, { priority: e.target.value })}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn-icon"
                        aria-label="Remove target"
                        onClick={() => setTargets(targets.filter((_, j) => j !== i))}
                      >
                        ×
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <div>
            <button
              type="button"
              className="btn btn-small"
              disabled={!features.data?.length}
              onClick={() => {
                const unused = features.data?.find((f) => !targets.some((t) => t.featureCatalogId === f.id));
                if (unused)
                  setTargets([
                    ...targets,
                    { key: newKey(), featureCatalogId: unused.id, question: "", priority: "" },
                  ]);
              }}
            >
              Add target
            </button>
          </div>
        </Field>
        <Field
          label="Offers"
          htmlFor="campaign-offers"
          hint="Offer ids, one per line. Empty asks every customer."
          error={fieldError(problem, "offers")}
        >
          <textarea
            id="campaign-offers"
            rows={2}
            className="mono"
            value={offers}
            onChange={(e) => setOffers(e.target.value)}
          />
        </Field>
      </form>
    </Dialog>
  );
}
