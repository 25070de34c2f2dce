/**
 * The form kit: every back-office and portal form is built from these parts.
 *
 * Usage (see components/catalog/products/product-form-dialog.tsx for a whole dialog):
 *
 *   const form = useSchemaForm<Values, TProductCreateRequest>(ZProductCreateRequest, {
 *     defaultValues: { name: "", seats: 1, expiresOn: "" },
 *     // Optional: when the inputs' shape differs from the request (dates, comma lists, "" → null).
 *     toPayload: (v) => ({ ...v, expirationDate: v.expiresOn ? `${v.expiresOn}T00:00:00Z` : null }),
 *     fieldOf: { expirationDate: "expiresOn" }, // request path → the field that edits it
 *   });
 *   const create = useMutation(trpc.products.create.mutationOptions({ onError: form.showProblem }));
 *
 *   <Form form={form} id="product-form" onSubmit={(payload) => create.mutate(payload)}>
 *     <TextField name="name" label="Name" />                 // counter "0 / 200 characters" from the schema
 *     <NumberField name="seats" label="Seats" unit="seats" /> // "Between 1 and 1,000,000 seats."
 *     <MoneyField name="monthlyPrice" label="Monthly price" currency="EUR" per="month" /> // "EUR 0.00 or more per month."
 *     <SelectField name="status" label="Status" options={[{ value: "Draft", label: "Draft" }]} />
 *     <DateField name="expiresOn" label="Expiration date" />
 *     <CheckboxField name="isLocked" label="Locked" />
 *   </Form>
 *   <button type="submit" form="product-form">Create product</button>   // e.g. in a Dialog footer
 *
 * - Limits (max length, min/max, integer, step) are read from the request schema at the field's
 *   name (or `schemaPath`); props with the same names override them.
 * - Errors are sentences from the message catalogue (./messages.ts) with the field's label:
 *   client-side zod issues, and a server refusal passed to `form.showProblem(error)` (field errors
 *   at their fields, the rest in the summary at the top of the form). Never print `problem.detail`,
 *   `codeName` or zod messages yourself; outside forms use `ProblemAlert` (components/ui).
 * - A new codeName in server/core/errors.ts needs a sentence in ./problem-sentences.ts (typecheck
 *   and tests/unit/ui/message-catalogue.test.ts fail otherwise).
 * - Lists edited as tables (options, bands, tiers, metadata): `RowEditor` with its columns, or
 *   `RowListField` bound to the list at a name; cells are named "Option 2 value" in sentences.
 * - Irreversible actions go through `ConfirmDialog` with `consequences` ("Seats in use stay
 *   assigned.") and a confirm label naming the action.
 * - Numbers, money, dates and percentages: components/ui/format.ts (formatQuantity, formatMoney,
 *   formatDate/formatDateTime/formatRelative, formatPercent; `<When value>` for relative + absolute).
 */
export { Form } from "./form";
export { useSchemaForm, schemaResolver, type SchemaForm } from "./use-schema-form";
export {
  FieldShell,
  TextField,
  NumberField,
  MoneyField,
  SelectField,
  DateField,
  CheckboxField,
  type Option,
} from "./fields";
export { numberLimitText, type NumberUnits } from "./number-limits";
export { ProblemSummary } from "./problem-summary";
export { RowEditor, RowListField, cellLabel, type RowColumn, type RowEditorProps } from "./row-editor";
export { ConfirmDialog } from "./confirm-dialog";
export { controlId } from "./kit-context";
export { limitsAt, type Limits } from "./schema-limits";
export {
  issueSentence,
  problemSentence,
  fieldIssueSentence,
  labelFromPath,
  withLabel,
  zodIssueCodes,
} from "./messages";
export { problemSentences } from "./problem-sentences";
