"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZPlanSetCreateRequest,
  type TPlanSetResponse,
} from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { productLabel } from "./product-picker";

/**
 * A new Draft revision: for a suite, or for one product (its implicit suite is created the first
 * time a product is priced). A first plan is added so the editor opens on something to fill in.
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
  const [target, setTarget] = useState<"product" | "suite">(defaultSuiteId ? "suite" : "product");
  const [suiteId, setSuiteId] = useState(defaultSuiteId ?? "");
  const [productId, setProductId] = useState("");
  const [name, setName] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
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
    }),
  );
  const problem = localProblem ?? problemFrom(create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    create.reset();
    const parsed = ZPlanSetCreateRequest.safeParse({
      name,
      ...(target === "suite" ? { suiteId: suiteId || null } : { productId: productId || null }),
      plans: [
        {
          name: "Standard",
          pricingMode: "Absolute",
          monthlyPrice: null,
          lineItems: target === "product" ? [{ featureValues: [] }] : [],
        },
      ],
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }

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
      <ProblemAlert problem={problem} />
      <form id="plan-set-create" className="form" onSubmit={submit} noValidate>
        <Field label="Price" htmlFor="plan-set-target">
          <select
            id="plan-set-target"
            value={target}
            onChange={(e) => setTarget(e.target.value as "product" | "suite")}
          >
            <option value="product">One product (its own implicit suite)</option>
            <option value="suite">A suite of products</option>
          </select>
        </Field>
        {target === "product" ? (
          <Field
            label="Product"
            htmlFor="plan-set-product"
            hint="The first time a product is priced, a suite of just that product is created behind it."
            error={fieldError(problem, "suiteId") ?? fieldError(problem, "productId")}
          >
            <select id="plan-set-product" value={productId} onChange={(e) => setProductId(e.target.value)}>
              <option value="">Choose a product</option>
              {(products.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {productLabel(p)}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field label="Suite" htmlFor="plan-set-suite" error={fieldError(problem, "suiteId")}>
            <select id="plan-set-suite" value={suiteId} onChange={(e) => setSuiteId(e.target.value)}>
              <option value="">Choose a suite</option>
              {(suites.data?.items ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.code})
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label="Plan set name" htmlFor="plan-set-new-name" error={fieldError(problem, "name")}>
          <input
            id="plan-set-new-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="2027 plans"
          />
        </Field>
      </form>
    </Dialog>
  );
}
