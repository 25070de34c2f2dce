"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useWatch } from "react-hook-form";
import {
  ZPlanSetCreateRequest,
  type TPlanSetCreateRequest,
  type TPlanSetResponse,
} from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Form, SelectField, TextField, useSchemaForm } from "../ui/form";
import { productLabel } from "./product-picker";

type Target = "product" | "suite";
type Values = {
  target: Target;
  /** The product or the suite priced, by the target; "" until one is chosen. */
  owner: string;
  name: string;
};

/**
 * The request for the values: the product or the suite, and a first plan so the editor opens on
 * something to fill in. A blank choice stays "" so the schema asks to choose from the list.
 */
export function planSetCreateRequestOf(v: Values): unknown {
  return {
    name: v.name,
    ...(v.target === "suite" ? { suiteId: v.owner } : { productId: v.owner }),
    plans: [
      {
        name: "Standard",
        pricingMode: "Absolute",
        monthlyPrice: null,
        lineItems: v.target === "product" ? [{ featureValues: [] }] : [],
      },
    ],
  };
}

/**
 * A new Draft revision: for a suite, or for one product (its implicit suite is created the first
 * time a product is priced). On the form kit, checked before sending by the schema the API's
 * contract parses (server/http/contracts/pricing/plan-sets.ts takes it from the domain's schemas).
 */
export function PlanSetCreateDialog({
  defaultSuiteId,
  onClose,
  onCreated,
}: {
  defaultSuiteId?: string;
  onClose: () => void;
  onCreated: (planSet: TPlanSetResponse) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TPlanSetCreateRequest>(ZPlanSetCreateRequest, {
    defaultValues: {
      target: defaultSuiteId ? "suite" : "product",
      owner: defaultSuiteId ?? "",
      name: "",
    },
    toPayload: planSetCreateRequestOf,
    // The schema files "give a suite or a product" under suiteId; both are the one choice here.
    fieldOf: { suiteId: "owner", productId: "owner" },
  });
  const suites = useQuery(
    trpc.suites.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      sortOrder: "name",
      includeImplicit: false,
    }),
  );
  const products = useQuery(trpc.suites.productOptions.queryOptions({ term: "" }));
  const create = useMutation(
    trpc.planSets.create.mutationOptions({
      onSuccess: async (planSet) => {
        await queryClient.invalidateQueries({ queryKey: trpc.planSets.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
        onCreated(planSet);
      },
      onError: form.showProblem,
    }),
  );
  const target = useWatch({ control: form.control, name: "target" });
  // A product and a suite are different lists: another target starts the choice again.
  const shownTarget = useRef(target);
  useEffect(() => {
    if (shownTarget.current !== target) {
      form.setValue("owner", "");
      form.clearErrors("owner");
    }
    shownTarget.current = target;
  }, [form, target]);

  return (
    <Dialog
      open
      title="New plan set"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="plan-set-create"
            className="btn btn-primary"
            disabled={create.isPending}
          >
            {create.isPending ? "Creating…" : "Create draft"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="plan-set-create"
        onSubmit={(payload) => {
          create.reset();
          create.mutate(payload);
        }}
      >
        <SelectField
          name="target"
          label="Price"
          options={[
            { value: "product", label: "One product (its own implicit suite)" },
            { value: "suite", label: "A suite of products" },
          ]}
        />
        {target === "product" ? (
          <SelectField
            key="product"
            name="owner"
            label="Product"
            hint="The first time a product is priced, a suite of just that product is created behind it."
            emptyLabel="Choose a product"
            options={(products.data ?? []).map((p) => ({ value: p.id, label: productLabel(p) }))}
          />
        ) : (
          <SelectField
            key="suite"
            name="owner"
            label="Suite"
            emptyLabel="Choose a suite"
            options={(suites.data?.items ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
          />
        )}
        <TextField name="name" label="Plan set name" placeholder="2027 plans" />
      </Form>
    </Dialog>
  );
}
