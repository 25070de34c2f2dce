"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TCustomerOrganizationResponse } from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { formatDateTime } from "../ui/format";
import { ListTable, SearchFilter } from "../ui/list-controls";
import { problemFrom } from "../ui/problem";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CustomerListPanel, removeColumn } from "./customer-list-panel";
import { OrganizationAddForm } from "./organization-add-form";

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
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
  const remove = useMutation(trpc.customers.deleteOrganization.mutationOptions({ onSuccess: invalidate }));

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
    removeColumn(
      (id) => remove.mutate({ id }),
      (o) => ({
        name: o.name,
        consequences: [
          "It is deleted for good.",
          "An organization that still has licenses or members is not removed: move them first.",
        ],
      }),
    ),
  ];

  return (
    <CustomerListPanel
      id="orgs"
      title="Organizations"
      exportList="customer-organizations"
      query={view.query}
      pending={view.pending}
      problem={problemFrom(list.error ?? remove.error)}
      onDismiss={() => remove.reset()}
      filters={
        <SearchFilter
          view={view}
          name="q"
          label="Filter organizations"
          placeholder="Name, reference, domain or country…"
        />
      }
      addForm={<OrganizationAddForm />}
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
