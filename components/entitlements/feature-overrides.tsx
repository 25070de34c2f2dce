"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";

/** Per-entitlement values of the features whose canModifyValueOnEntitlement allows it. */
export function FeatureOverrides({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const modifiable = entitlement.features.filter((f) => f.canModifyValueOnEntitlement);
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...entitlement.featureOverrides }));
  const save = useMutation(
    trpc.entitlements.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  if (!modifiable.length || entitlement.status === "Archived") return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const featureOverrides = Object.fromEntries(
      modifiable.map((f) => [
        f.featureCode,
        values[f.featureCode]?.trim() ? values[f.featureCode].trim() : null,
      ]),
    );
    save.mutate({ id: entitlement.id, edit: { featureOverrides } });
  }

  return (
    <form className="toolbar" onSubmit={submit} aria-label="Feature overrides">
      <ProblemAlert problem={problemFrom(save.error)} onDismiss={() => save.reset()} />
      {modifiable.map((f) => (
        <input
          key={f.featureCode}
          aria-label={`Override ${f.featureCode}`}
          placeholder={`${f.name}: plan value`}
          value={values[f.featureCode] ?? ""}
          onChange={(e) => setValues({ ...values, [f.featureCode]: e.target.value })}
        />
      ))}
      <button type="submit" className="btn btn-small" disabled={save.isPending}>
        Save overrides
      </button>
    </form>
  );
}
