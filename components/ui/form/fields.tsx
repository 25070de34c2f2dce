"use client";

import { useEffect, type ReactNode } from "react";
import { get, useController, useFormContext, useFormState, useWatch } from "react-hook-form";
import { formatQuantity } from "../format";
import { controlId, useKit } from "./kit-context";
import { withLabel } from "./messages";
import { numberLimitText } from "./number-limits";
import { limitsAt, type Limits } from "./schema-limits";

type Common = {
  /** The value's name in the form's values (dotted for nested: "plans.0.name"). */
  name: string;
  label: string;
  hint?: ReactNode;
  disabled?: boolean;
  /** Where the request schema holds this value when it differs from `name` (for the limits). */
  schemaPath?: string;
  className?: string;
};

/** The limits at a field: the schema's, overridden by the props that name them. */
function useLimits(name: string, schemaPath: string | undefined, own: Limits): Limits {
  const { schema } = useKit();
  const fromSchema = limitsAt(schema, schemaPath ?? name);
  const merged = { ...fromSchema };
  for (const [key, value] of Object.entries(own))
    if (value !== undefined) Object.assign(merged, { [key]: value });
  return merged;
}

/**
 * The frame of every field: label, the control, the hint with its limits, and the plain sentence of
 * its error (described-by the control so screen readers read it).
 */
export function FieldShell({
  name,
  label,
  hint,
  limit,
  className,
  children,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  limit?: ReactNode;
  className?: string;
  children: (control: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const { formId, labels } = useKit();
  const { errors } = useFormState({ name });
  const id = controlId(formId, name);
  useEffect(() => {
    labels.set(name, label);
  }, [labels, name, label]);
  const error = get(errors, name) as { message?: string } | undefined;
  const message = error?.message ? withLabel(error.message, label) : null;
  const hintId = hint || limit ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${message ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(message) })}
      {hint || limit ? (
        <div className="field-hint" id={hintId}>
          {hint}
          {hint && limit ? " " : null}
          {limit}
        </div>
      ) : null}
      {message ? (
        <div className="field-error" id={errorId} data-testid={`error-${name}`}>
          {message}
        </div>
      ) : null}
    </div>
  );
}

/** "12 / 200": the characters used against the schema's maximum, live. */
function Counter({ name, max }: { name: string; max: number }) {
  const value = useWatch({ name }) as string | null | undefined;
  const used = value?.length ?? 0;
  return (
    <span className={`field-counter${used > max ? " field-counter-over" : ""}`} aria-live="polite">
      {formatQuantity(used)} / {formatQuantity(max)} characters
    </span>
  );
}

/** A text input or textarea; the schema's maximum length shows as a live counter. */
export function TextField({
  name,
  label,
  hint,
  disabled,
  schemaPath,
  className,
  multiline,
  rows = 3,
  mono,
  type = "text",
  placeholder,
  autoFocus,
  autoComplete,
  maxLength,
}: Common & {
  multiline?: boolean;
  rows?: number;
  mono?: boolean;
  type?: "text" | "email" | "url" | "password" | "search";
  placeholder?: string;
  autoFocus?: boolean;
  autoComplete?: string;
  maxLength?: number;
}) {
  const { register } = useFormContext();
  const limits = useLimits(name, schemaPath, { maxLength });
  const limit = limits.maxLength ? <Counter name={name} max={limits.maxLength} /> : null;
  return (
    <FieldShell name={name} label={label} hint={hint} limit={limit} className={className}>
      {({ id, describedBy, invalid }) => {
        const props = {
          id,
          "aria-describedby": describedBy,
          "aria-invalid": invalid || undefined,
          "aria-required": limits.required || undefined,
          className: mono ? "mono" : undefined,
          placeholder,
          autoFocus,
          autoComplete,
          disabled,
          ...register(name),
        };
        return multiline ? <textarea rows={rows} {...props} /> : <input type={type} {...props} />;
      }}
    </FieldShell>
  );
}

/**
 * A number input with its unit (or currency) beside it and its range in the hint. An empty box is
 * `emptyAs` (undefined: "not given"; null: "cleared").
 */
export function NumberField({
  name,
  label,
  hint,
  disabled,
  schemaPath,
  className,
  unit,
  prefix,
  currency,
  per,
  min,
  max,
  step,
  emptyAs,
  autoFocus,
}: Common & {
  /** Shown after the box and in the limits ("GB", "seats", "days"). */
  unit?: string;
  /** Shown before the box. */
  prefix?: string;
  /** A currency code: before the box, and the limits read as money ("USD 0.00 or more"). */
  currency?: string;
  /** The interval an amount is per ("month"): after the box and in the limits ("per month"). */
  per?: string;
  min?: number;
  max?: number;
  step?: number | "any";
  emptyAs?: null | undefined;
  autoFocus?: boolean;
}) {
  const { register } = useFormContext();
  const limits = useLimits(name, schemaPath, { min, max });
  const limit = numberLimitText(limits, { unit, currency, per });
  const before = prefix ?? currency;
  const after = [unit, per ? `per ${per}` : undefined].filter(Boolean).join(" ");
  const htmlStep = step ?? limits.step ?? (limits.integer ? 1 : "any");
  return (
    <FieldShell name={name} label={label} hint={hint} limit={limit} className={className}>
      {({ id, describedBy, invalid }) => (
        <div className="input-affix">
          {before ? <span className="input-affix-text">{before}</span> : null}
          <input
            id={id}
            type="number"
            inputMode={limits.integer ? "numeric" : "decimal"}
            min={limits.min}
            max={limits.max}
            step={htmlStep}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={limits.required || undefined}
            disabled={disabled}
            autoFocus={autoFocus}
            {...register(name, {
              setValueAs: (raw: unknown) =>
                raw === "" || raw === null || raw === undefined
                  ? emptyAs
                  : typeof raw === "number"
                    ? raw
                    : Number(raw),
            })}
          />
          {after ? <span className="input-affix-text">{after}</span> : null}
        </div>
      )}
    </FieldShell>
  );
}

/** A price: the currency code before the box, cents allowed, "0 means free" said up front. */
export function MoneyField(
  props: Common & { currency: string; per?: string; min?: number; max?: number; emptyAs?: null },
) {
  const { currency, per, hint, ...rest } = props;
  return (
    <NumberField
      {...rest}
      currency={currency.toUpperCase() || undefined}
      per={per}
      step={0.01}
      hint={hint ?? "0 shows as Free."}
    />
  );
}

export type Option = { value: string; label: string };

/**
 * A select; `emptyLabel` adds a first "none" choice whose value is the empty string. Controlled, so
 * a value whose option arrives later (a list still loading) shows once it does.
 */
export function SelectField({
  name,
  label,
  hint,
  disabled,
  schemaPath,
  className,
  options,
  emptyLabel,
}: Common & { options: readonly Option[]; emptyLabel?: string }) {
  const { field } = useController({ name });
  const limits = useLimits(name, schemaPath, {});
  return (
    <FieldShell name={name} label={label} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={limits.required || undefined}
          disabled={disabled}
          name={field.name}
          ref={field.ref}
          value={(field.value as string | null | undefined) ?? ""}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
        >
          {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** A date as the browser's date picker edits it ("2026-12-31"); the form's toPayload makes it a timestamp. */
export function DateField({ name, label, hint, disabled, schemaPath, className }: Common) {
  const { register } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type="date"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          data-schema-path={schemaPath}
          {...register(name)}
        />
      )}
    </FieldShell>
  );
}

/**
 * A checkbox with its label to the right and an optional hint below. With `value`, one of a group
 * sharing `name`: the form's value there is the list of the checked ones' values.
 */
export function CheckboxField({
  name,
  label,
  hint,
  disabled,
  className,
  value,
}: Omit<Common, "label"> & { label: ReactNode; value?: string }) {
  const { register } = useFormContext();
  const { formId } = useKit();
  const id = controlId(formId, value === undefined ? name : `${name}.${value}`);
  return (
    <div className={`field field-checkbox${className ? ` ${className}` : ""}`}>
      <label className="checkbox" htmlFor={id}>
        <input id={id} type="checkbox" value={value} disabled={disabled} {...register(name)} />
        {label}
      </label>
      {hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}
