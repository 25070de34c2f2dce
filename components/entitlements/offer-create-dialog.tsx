"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { get, useFormState, useWatch } from "react-hook-form";
import {
  ZOfferWriteRequest,
  type TOfferResponse,
  type TOfferWriteRequest,
} from "@/server/domain/entitlements/offers/offer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import {
  CheckboxField,
  Form,
  NumberField,
  SelectField,
  TextField,
  useSchemaForm,
  withLabel,
} from "../ui/form";

type Values = {
  name: string;
  productIds: string[];
  planSetId: string;
  planName: string;
  validityDays: number | null;
  isEntitlementTrial: boolean;
  claimBasedActivation: { numberOfSeats: number; isFloatingLicense: boolean };
};

/** The products the offer copies from, as a group of checkboxes with the list's own error. */
function ProductsField({ products }: { products: { id: string; name: string; productCode: string }[] }) {
  const { errors } = useFormState({ name: "productIds" });
  const error = get(errors, "productIds") as { message?: string } | undefined;
  return (
    <fieldset className={`form-section field${error?.message ? " field-invalid" : ""}`}>
      <legend>Products</legend>
      <div className="field-hint">Their features and monitored assets are copied onto the offer.</div>
      <div className="chips">
        {products.map((p) => (
          <CheckboxField
            key={p.id}
            name="productIds"
            value={p.id}
            label={
              <>
                {p.name} <span className="muted">{p.productCode}</span>
              </>
            }
          />
        ))}
      </div>
      {error?.message ? <div className="field-error">{withLabel(error.message, "Products")}</div> : null}
    </fieldset>
  );
}

/** A Draft offer made from catalog products, a plan and the licensing model. */
export function OfferCreateDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  /** The new offer's page opens next. */
  onCreated?: (offer: TOfferResponse) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TOfferWriteRequest>(ZOfferWriteRequest, {
    defaultValues: {
      name: "",
      productIds: [],
      planSetId: "",
      planName: "",
      validityDays: null,
      isEntitlementTrial: false,
      claimBasedActivation: { numberOfSeats: 1, isFloatingLicense: false },
    },
    // No plan set means no plan; the API takes the two together or neither.
    toPayload: (v) => ({
      ...v,
      planSetId: v.planSetId || null,
      planName: v.planSetId ? v.planName || null : null,
    }),
  });
  const products = useQuery(
    trpc.products.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      sortOrder: "name",
      includeDeleted: false,
    }),
  );
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status==Published" }),
  );
  const create = useMutation(
    trpc.entitlements.createOffer.mutationOptions({
      onSuccess: async (offer) => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        if (onCreated) onCreated(offer);
        else onClose();
      },
      onError: form.showProblem,
    }),
  );
  const planSetId = useWatch({ control: form.control, name: "planSetId" });
  const plans = planSets.data?.items.find((p) => p.id === planSetId)?.plans ?? [];
  // Another plan set's plans are other plans: the choice starts again.
  const shownSet = useRef(planSetId);
  useEffect(() => {
    if (shownSet.current !== planSetId) form.setValue("planName", "");
    shownSet.current = planSetId;
  }, [form, planSetId]);

  return (
    <Dialog
      open
      wide
      title="New offer"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="offer-create" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create offer"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="offer-create"
        onSubmit={(payload) => {
          create.reset();
          create.mutate(payload);
        }}
      >
        <TextField name="name" label="Name" />
        <ProductsField products={products.data?.items ?? []} />
        <div className="form-row">
          <SelectField
            name="planSetId"
            label="Plan set"
            emptyLabel="No plan"
            options={(planSets.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
          <SelectField
            name="planName"
            label="Plan"
            emptyLabel="Choose a plan"
            disabled={!planSetId}
            options={plans.map((p) => ({ value: p.name, label: p.name }))}
          />
        </div>
        <div className="form-row">
          <NumberField name="claimBasedActivation.numberOfSeats" label="Seats" />
          <NumberField name="validityDays" label="Validity (days)" emptyAs={null} hint="Empty: no expiry." />
        </div>
        <CheckboxField name="claimBasedActivation.isFloatingLicense" label="Floating license" />
        <CheckboxField name="isEntitlementTrial" label="Trial" />
      </Form>
    </Dialog>
  );
}
