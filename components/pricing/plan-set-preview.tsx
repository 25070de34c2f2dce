"use client";

import { useWatch } from "react-hook-form";
import { ConsumerPlansList } from "../licensing/consumer-plans-list";
import type { FeatureOption } from "./feature-value-row";
import { customerPlansOf, type PlanForm, type PlanSetForm } from "./plan-set-form";

/**
 * The set's plans exactly as a customer compares them in the portal (the same component), read
 * from the editor's form so unsaved edits show: names, prices, features in plain words, no
 * controls and no ids.
 */
export function PlanSetPreview({ featuresOf }: { featuresOf: Map<string, FeatureOption[] | undefined> }) {
  const plans = (useWatch({ name: "plans" }) as PlanForm[] | undefined) ?? [];
  const pricingMode = useWatch({ name: "pricingMode" }) as PlanSetForm["pricingMode"];
  return (
    <section className="panel" aria-label="Customer preview" data-testid="customer-preview">
      <p className="muted small">
        What a customer sees when comparing the plans of a license made from this set, as the portal shows
        them. Unsaved changes are included.
      </p>
      <ConsumerPlansList
        plans={customerPlansOf({ pricingMode, plans }, featuresOf)}
        caption="Plans as a customer compares them"
        empty="No plans yet: a customer would see none."
      />
    </section>
  );
}
