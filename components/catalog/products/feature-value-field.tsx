"use client";

import { useController } from "react-hook-form";
import { FieldShell } from "../../ui/form";
import { FeatureValueInput, type FeatureTypeInfo } from "../feature-value-input";

/** A product feature's value in the form kit: the type-aware input (select, number, text) under its label. */
export function FeatureValueField({ type, hint }: { type: FeatureTypeInfo; hint: string }) {
  const { field } = useController({ name: "value" });
  return (
    <FieldShell name="value" label="Value" hint={hint}>
      {({ id }) => (
        <FeatureValueInput
          id={id}
          type={type}
          value={(field.value as string) ?? ""}
          onChange={field.onChange}
        />
      )}
    </FieldShell>
  );
}
