"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormContext } from "react-hook-form";
import type { z } from "zod";
import {
  ZRatingCampaignCreateRequest,
  ZRatingCampaignUpdateRequest,
  type TRatingCampaignCreateRequest,
  type TRatingCampaignResponse,
  type TRatingCampaignUpdateRequest,
} from "@/server/domain/catalog/rating-campaigns/rating-campaign.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import {
  CheckboxField,
  FieldShell,
  Form,
  RowListField,
  TextField,
  useSchemaForm,
  type RowColumn,
} from "../../ui/form";
import { CampaignOffersField } from "./campaign-offers-field";
import { campaignPayload, campaignValues, type CampaignValues, type TargetRow } from "./campaign-values";

type Payload = TRatingCampaignCreateRequest | TRatingCampaignUpdateRequest;

/** A window bound: the browser's date-and-time picker, in local time. */
function WindowField({ name, label, hint }: { name: "startsAt" | "endsAt"; label: string; hint: string }) {
  const { register } = useFormContext<CampaignValues>();
  return (
    <FieldShell name={name} label={label} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type="datetime-local"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...register(name)}
        />
      )}
    </FieldShell>
  );
}

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
  const form = useSchemaForm<CampaignValues, Payload>(
    (campaign ? ZRatingCampaignUpdateRequest : ZRatingCampaignCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: campaignValues(campaign),
      toPayload: (v) => campaignPayload(v, campaign?.revisionNumber),
    },
  );
  const features = useQuery(trpc.planSets.featureOptions.queryOptions({ term: "" }));
  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.ratingCampaigns.pathKey() });
    onClose();
  };
  const create = useMutation(
    trpc.ratingCampaigns.create.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const update = useMutation(
    trpc.ratingCampaigns.update.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const pending = create.isPending || update.isPending;

  const featureOptions = (row: TargetRow) => {
    const known = (features.data ?? []).map((f) => ({ value: f.id, label: `${f.name} (${f.featureCode})` }));
    if (known.some((o) => o.value === row.featureCatalogId)) return known;
    const saved = campaign?.targets.find((t) => t.featureCatalogId === row.featureCatalogId)?.featureName;
    return [{ value: row.featureCatalogId, label: saved ?? "Loading features…" }, ...known];
  };
  const targetColumns: RowColumn<TargetRow>[] = [
    { key: "featureCatalogId", header: "Feature", cell: "feature", kind: "select", options: featureOptions },
    { key: "question", header: "Question", cell: "question", placeholder: "generic prompt", wide: true },
    { key: "priority", header: "Priority", cell: "priority", kind: "decimal" },
  ];

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
          <button type="submit" form="campaign-form" className="btn btn-primary" disabled={pending}>
            {pending ? "Saving…" : campaign ? "Save" : "Create campaign"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="campaign-form"
        className="form pricing"
        onSubmit={(payload) => {
          create.reset();
          update.reset();
          if (campaign) update.mutate({ id: campaign.id, edit: payload as TRatingCampaignUpdateRequest });
          else create.mutate(payload as TRatingCampaignCreateRequest);
        }}
      >
        <div className="form-row">
          <TextField name="name" label="Name" />
          <CheckboxField name="isEnabled" label="Ask while inside the window" />
        </div>
        <TextField name="description" label="Description" multiline rows={2} />
        <div className="grid-2">
          <WindowField name="startsAt" label="Starts" hint="Empty: already started." />
          <WindowField name="endsAt" label="Ends" hint="Empty: runs until disabled." />
        </div>
        <fieldset className="form-section">
          <legend>Targets</legend>
          <RowListField<TargetRow>
            name="targets"
            listLabel="Targets"
            label="Targets"
            rowName="Target"
            columns={targetColumns}
            newRow={(rows) => ({
              featureCatalogId:
                features.data?.find((f) => !rows.some((r) => r.featureCatalogId === f.id))?.id ?? "",
              question: "",
              priority: "",
            })}
            addLabel="Add target"
            disabled={!features.data?.length}
          >
            <p className="muted small">
              Lower priority is asked first; an empty priority is asked last (by recent usage). An empty
              question uses the generic prompt.
            </p>
          </RowListField>
        </fieldset>
        <CampaignOffersField />
      </Form>
    </Dialog>
  );
}
