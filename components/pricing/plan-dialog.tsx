"use client";

import { useFormContext, useWatch } from "react-hook-form";
import { Dialog } from "../ui/dialog";
import { MoneyField, NumberField, TextField } from "../ui/form";
import type { FeatureOption } from "./feature-value-row";
import { PlanLineItems, type MemberOption } from "./plan-line-items";
import type { PlanForm } from "./plan-set-form";

/**
 * One plan of the set, edited in a dialog over the set's own form: its fields are the set's
 * `plans.N.*`, so the API's schema checks them where they are typed. Done checks the plan (the
 * set's rules included, such as a paid plan's currency) and closes; the set is saved with Save.
 */
export function PlanDialog({
  index,
  onDone,
  onCancel,
  readOnly,
  members,
  membersLoading,
  featuresOf,
  balanceMetrics,
}: {
  index: number;
  onDone: () => void;
  onCancel: () => void;
  readOnly: boolean;
  members: readonly MemberOption[];
  membersLoading: boolean;
  featuresOf: Map<string, FeatureOption[] | undefined>;
  balanceMetrics: readonly string[];
}) {
  const { trigger } = useFormContext();
  const at = `plans.${index}`;
  const plan = useWatch({ name: at }) as PlanForm | undefined;
  const pricingMode = useWatch({ name: "pricingMode" }) as string;
  if (!plan) return null;
  const title = plan.name.trim() ? `Plan ${plan.name.trim()}` : `Plan ${index + 1}`;
  const done = async () => {
    if (await trigger(at)) onDone();
  };

  return (
    <Dialog
      open
      wide
      title={title}
      onClose={onCancel}
      footer={
        readOnly ? (
          <button type="button" className="btn" onClick={onCancel}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="btn" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void done()}>
              Done
            </button>
          </>
        )
      }
    >
      <fieldset
        disabled={readOnly}
        className="plan-dialog"
        // Enter in a box means Done here, not the page's Save behind the dialog.
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.target as HTMLElement).tagName === "INPUT") {
            e.preventDefault();
            void done();
          }
        }}
      >
        <div className="grid-3">
          <TextField name={`${at}.name`} label="Plan name" autoFocus />
          {pricingMode === "Relative" ? (
            <NumberField
              name={`${at}.relativeWeight`}
              label="Relative weight"
              emptyAs={null}
              hint="Blank: not weighted yet; 0 carries no weight."
            />
          ) : (
            <>
              <MoneyField
                name={`${at}.monthlyPrice`}
                label="Monthly price"
                currency={plan.currency || ""}
                per="month"
                emptyAs={null}
                hint="Blank: not priced yet; 0 shows as Free."
              />
              <TextField
                name={`${at}.currency`}
                label="Currency"
                placeholder="EUR"
                hint="Three-letter code, like EUR; a paid plan needs one."
              />
            </>
          )}
        </div>
        <TextField name={`${at}.description`} label="Description" multiline rows={2} />
        <h3 className="plan-dialog-heading">Products in this plan</h3>
        <PlanLineItems
          name={`${at}.lineItems`}
          planLabel={title.replace(/^Plan /, "")}
          members={members}
          membersLoading={membersLoading}
          featuresOf={featuresOf}
          balanceMetrics={balanceMetrics}
        />
      </fieldset>
    </Dialog>
  );
}
