"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZCustomerOrganizationCreateRequest,
  type TCustomerOrganizationResponse,
} from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { formatDateTime } from "../ui/format";
import { ListTable, SearchFilter } from "../ui/list-controls";
import { problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CustomerListPanel, removeColumn } from "./customer-list-panel";

/** Customer organizations: filter, sort, add and remove (Organization.* events go out from these changes). */
export function OrganizationsPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    key: "orgs",
    filters: { q: "" },
    terms: (f) => [f.q && `name|externalReference|emailDomain|country@=*${sieveValue(f.q)}`],
  });
  const list = useQuery({
    ...trpc.customers.organizations.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const [name, setName] = useState("");
  const [country, setCountry] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
  const create = useMutation(
    trpc.customers.createOrganization.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setName("");
        setCountry("");
      },
    }),
  );
  const remove = useMutation(trpc.customers.deleteOrganization.mutationOptions({ onSuccess: invalidate }));

  function add(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    const parsed = ZCustomerOrganizationCreateRequest.safeParse({
      name: name.trim(),
      organizationType: "Customer",
      country: country.trim().toUpperCase() || null,
      origin: "admin",
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }

  const columns: Column<TCustomerOrganizationResponse>[] = [
    {
      key: "name",
      header: "Name",
      sortField: "name",
      render: (o) => <Link href={`/admin/customers/organizations/${o.id}`}>{o.name}</Link>,
    },
    { key: "country", header: "Country", sortField: "country", render: (o) => o.country ?? "" },
    { key: "origin", header: "Origin", sortField: "origin", render: (o) => o.origin },
    { key: "created", header: "Created", sortField: "createdAt", render: (o) => formatDateTime(o.createdAt) },
    removeColumn((id) => remove.mutate({ id })),
  ];

  return (
    <CustomerListPanel
      id="orgs"
      title="Organizations"
      exportList="customer-organizations"
      query={view.query}
      pending={view.pending}
      problem={localProblem ?? problemFrom(list.error ?? create.error ?? remove.error)}
      onDismiss={() => {
        setLocalProblem(null);
        create.reset();
        remove.reset();
      }}
      filters={
        <SearchFilter
          view={view}
          name="q"
          label="Filter organizations"
          placeholder="Name, reference, domain or country…"
        />
      }
      addForm={
        <form className="toolbar" onSubmit={add}>
          <input
            aria-label="Organization name"
            placeholder="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <input
            aria-label="Country"
            placeholder="Country (DE)"
            value={country}
            onChange={(e) => setCountry(e.target.value)}
          />
          <button
            type="submit"
            className="btn btn-small btn-primary"
            disabled={create.isPending || !name.trim()}
          >
            Add organization
          </button>
        </form>
      }
    >
      <ListTable
        view={view}
        list={list}
        caption="Organizations"
        columns={columns}
        rowKey={(o) => o.id}
        empty="No organization matches."
      />
    </CustomerListPanel>
  );
}
