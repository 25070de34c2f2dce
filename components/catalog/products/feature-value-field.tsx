"use client";

import { useController, type FieldValues, type Path, type UseFormSetError } from "react-hook-form";
import { validateFeatureValue } from "@/server/domain/catalog/feature-catalog/feature-value";
import { FieldShell, fieldIssueSentence } from "../../ui/form";
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

/**
 * The catalog entry's rule for the value (a number, one of the options), checked before sending
 * as the API does; a misfit is filed at the Value field. True when the value fits.
 */
export function featureValueFits<V extends FieldValues & { value: string }>(
  entry: Parameters<typeof validateFeatureValue>[0],
  value: string | null,
  setError: UseFormSetError<V>,
): boolean {
  const invalid = validateFeatureValue(entry, value);
  if (!invalid) return true;
  const message = fieldIssueSentence(
    { path: "value", message: invalid },
    "license.validation_error",
    "Value",
  );
  setError("value" as Path<V>, { type: "custom", message });
  return false;
}
