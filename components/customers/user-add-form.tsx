"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ZCustomerUserCreateRequest,
  type TCustomerUserCreateRequest,
} from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Form, SelectField, TextField, useSchemaForm } from "../ui/form";

type Values = { email: string; firstName: string; lastName: string; organizationId: string };

/** Adds a customer user from the list: email, name and, optionally, one organization. */
export function UserAddForm({ organizations }: { organizations: readonly (readonly [string, string])[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TCustomerUserCreateRequest>(ZCustomerUserCreateRequest, {
    defaultValues: { email: "", firstName: "", lastName: "", organizationId: "" },
    toPayload: (v) => ({
      email: v.email.trim() || null,
      firstName: v.firstName.trim() || null,
      lastName: v.lastName.trim() || null,
      organizationIds: v.organizationId ? [v.organizationId] : [],
      origin: "admin",
    }),
    fieldOf: { "organizationIds.0": "organizationId", organizationIds: "organizationId" },
  });
  const create = useMutation(
    trpc.customers.createUser.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
        // The organization stays chosen: users are often added to one organization in a row.
        form.reset({ ...form.getValues(), email: "", firstName: "", lastName: "" });
      },
      onError: form.showProblem,
    }),
  );
  return (
    <Form
      form={form}
      id="user-add"
      className="form-inline"
      label="Add a user"
      onSubmit={(payload) => {
        create.reset();
        create.mutate(payload);
      }}
    >
      <TextField name="email" label="Email" type="email" />
      <TextField name="firstName" label="First name" />
      <TextField name="lastName" label="Last name" />
      <SelectField
        name="organizationId"
        label="Organization"
        emptyLabel="No organization"
        options={organizations.map(([value, label]) => ({ value, label }))}
      />
      <button type="submit" className="btn btn-small btn-primary" disabled={create.isPending}>
        Add user
      </button>
    </Form>
  );
}
