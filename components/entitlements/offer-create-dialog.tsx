"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ZOfferWriteRequest, type TOfferResponse } from "@/server/domain/entitlements/offers/offer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";

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
  const [name, setName] = useState("");
  const [productIds, setProductIds] = useState<string[]>([]);
  const [planSetId, setPlanSetId] = useState("");
  const [planName, setPlanName] = useState("");
  const [validityDays, setValidityDays] = useState("");
  const [trial, setTrial] = useState(false);
  const [seats, setSeats] = useState("1");
  const [floating, setFloating] = useState(false);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
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
    }),
  );
  const problem = localProblem ?? problemFrom(create.error);
  const plans = planSets.data?.items.find((p) => p.id === planSetId)?.plans ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    create.reset();
    const parsed = ZOfferWriteRequest.safeParse({
      name,
      productIds,
      planSetId: planSetId || null,
      planName: planSetId ? planName || null : null,
      validityDays: validityDays ? Number(validityDays) : null,
      isEntitlementTrial: trial,
      claimBasedActivation: { numberOfSeats: Number(seats), isFloatingLicense: floating },
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }

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
      <ProblemAlert problem={problem} />
      <form id="offer-create" className="form" onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="offer-name" error={fieldError(problem, "name")}>
          <input id="offer-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field
          label="Products"
          hint="Their features and monitored assets are copied onto the offer."
          error={fieldError(problem, "productIds")}
        >
          <div className="chips">
            {(products.data?.items ?? []).map((p) => (
              <label key={p.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={productIds.includes(p.id)}
                  onChange={(e) =>
                    setProductIds(
                      e.target.checked ? [...productIds, p.id] : productIds.filter((id) => id !== p.id),
                    )
                  }
                />
                {p.name} <span className="muted">{p.productCode}</span>
              </label>
            ))}
          </div>
        </Field>
        <div className="form-row">
          <Field label="Plan set" htmlFor="offer-plan-set">
            <select
              id="offer-plan-set"
              value={planSetId}
              onChange={(e) => {
                setPlanSetId(e.target.value);
                setPlanName("");
              }}
            >
              <option value="">No plan</option>
              {(planSets.data?.items ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Plan" htmlFor="offer-plan" error={fieldError(problem, "planName")}>
            <select
              id="offer-plan"
              value={planName}
              disabled={!planSetId}
              onChange={(e) => setPlanName(e.target.value)}
            >
              <option value="">Choose a plan</option>
              {plans.map((p) => (
                <option key={p.id} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="form-row">
          <Field
            label="Seats"
            htmlFor="offer-seats"
            error={fieldError(problem, "claimBasedActivation.numberOfSeats")}
          >
            <input
              id="offer-seats"
              type="number"
              min={1}
              value={seats}
              onChange={(e) => setSeats(e.target.value)}
            />
          </Field>
          <Field
            label="Validity (days)"
            htmlFor="offer-validity"
            hint="Empty: no expiry."
            error={fieldError(problem, "validityDays")}
          >
            <input
              id="offer-validity"
              type="number"
              min={1}
              value={validityDays}
              onChange={(e) => setValidityDays(e.target.value)}
            />
          </Field>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={floating} onChange={(e) => setFloating(e.target.checked)} />{" "}
          Floating license
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={trial} onChange={(e) => setTrial(e.target.checked)} /> Trial
        </label>
      </form>
    </Dialog>
  );
}
