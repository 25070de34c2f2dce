"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ZEntitlementUpdateRequest,
  type TEntitlementResponse,
  type TEntitlementUpdateRequest,
} from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Form, TextField, useSchemaForm } from "../ui/form";

type Values = { overrides: { featureCode: string; value: string }[] };

/** Per-entitlement values of the features whose canModifyValueOnEntitlement allows it. */
export function FeatureOverrides({ entitlement }: { entitlement: TEntitlementResponse }) {
  const modifiable = entitlement.features.filter((f) => f.canModifyValueOnEntitlement);
  if (!modifiable.length || entitlement.status === "Archived") return null;
  return <OverridesForm entitlement={entitlement} features={modifiable} />;
}

function OverridesForm({
  entitlement,
  features,
}: {
  entitlement: TEntitlementResponse;
  features: TEntitlementResponse["features"];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Overrides are a map by feature code (codes may hold dots), edited as a list in the form.
  const form = useSchemaForm<Values, TEntitlementUpdateRequest>(ZEntitlementUpdateRequest, {
    defaultValues: {
      overrides: features.map((f) => ({
        featureCode: f.featureCode,
        value: entitlement.featureOverrides[f.featureCode] ?? "",
      })),
    },
    // A blank box removes the override: the plan's value applies again.
    toPayload: (v) => ({
      featureOverrides: Object.fromEntries(
        v.overrides.map((o) => [o.featureCode, o.value.trim() ? o.value.trim() : null]),
      ),
    }),
    fieldOf: Object.fromEntries(
      features.map((f, i) => [`featureOverrides.${f.featureCode}`, `overrides.${i}.value`]),
    ),
  });
  const save = useMutation(
    trpc.entitlements.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
      onError: form.showProblem,
    }),
  );
  return (
    <Form
      form={form}
      id="feature-overrides"
      className="form-inline"
      label="Feature overrides"
      onSubmit={(edit) => {
        save.reset();
        save.mutate({ id: entitlement.id, edit });
      }}
    >
      {features.map((f, i) => (
        <TextField
          key={f.featureCode}
          name={`overrides.${i}.value`}
          label={`Override ${f.name}`}
          placeholder="plan value"
          hint={`Blank: the plan's value${f.value !== null ? `, ${f.value}` : ""}.`}
        />
      ))}
      <button type="submit" className="btn btn-small" disabled={save.isPending}>
        Save overrides
      </button>
    </Form>
  );
}
