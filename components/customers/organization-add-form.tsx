"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ZCustomerOrganizationCreateRequest,
  type TCustomerOrganizationCreateRequest,
} from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Form, TextField, useSchemaForm } from "../ui/form";

type Values = { name: string; country: string };

/** Adds a customer organization from the list: its name and, optionally, its country. */
export function OrganizationAddForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TCustomerOrganizationCreateRequest>(ZCustomerOrganizationCreateRequest, {
    defaultValues: { name: "", country: "" },
    // Typed in any case, sent as the code; blank means none.
    toPayload: (v) => ({
      name: v.name,
      organizationType: "Customer",
      country: v.country.trim().toUpperCase() || null,
      origin: "admin",
    }),
  });
  const create = useMutation(
    trpc.customers.createOrganization.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
        form.reset();
      },
      onError: form.showProblem,
    }),
  );
  return (
    <Form
      form={form}
      id="organization-add"
      className="form-inline"
      label="Add an organization"
      onSubmit={(payload) => {
        create.reset();
        create.mutate(payload);
      }}
    >
      <TextField name="name" label="Organization name" />
      <TextField name="country" label="Country" hint="Two letters, like DE." />
      <button type="submit" className="btn btn-small btn-primary" disabled={create.isPending}>
        Add organization
      </button>
    </Form>
  );
}
