"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TCustomerUserResponse } from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { problemFrom } from "../ui/problem";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CustomerListPanel, removeColumn } from "./customer-list-panel";
import { UserAddForm } from "./user-add-form";

/** Customer users: filter, sort, add and remove (User.* events go out from these changes). */
export function UsersPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    key: "users",
    filters: { q: "", organizationId: "", blocked: false },
    terms: (f) => [
      f.q && `email|firstName|lastName|externalReference@=*${sieveValue(f.q)}`,
      f.organizationId && `organizationId==${f.organizationId}`,
      f.blocked && "isBlocked==true",
    ],
  });
  const list = useQuery({
    ...trpc.customers.users.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const orgs = useQuery(trpc.customers.organizations.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const orgOptions = (orgs.data?.items ?? []).map((o) => [o.id, o.name] as const);
  // "…" while the names load (or for an organization past the first 100), never the bare id.
  const orgName = (id: string) => orgs.data?.items.find((o) => o.id === id)?.name ?? "…";
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
  const remove = useMutation(trpc.customers.deleteUser.mutationOptions({ onSuccess: invalidate }));

  const columns: Column<TCustomerUserResponse>[] = [
    {
      key: "email",
      header: "Email",
      sortField: "email",
      render: (u) => (
        <Link href={`/admin/customers/users/${u.id}`}>{u.email ?? <span className="muted">none</span>}</Link>
      ),
    },
    {
      key: "name",
      header: "Name",
      sortField: "lastName",
      render: (u) => [u.firstName, u.lastName].filter(Boolean).join(" "),
    },
    {
      key: "type",
      header: "Type",
      sortField: "userType",
      render: (u) => `${u.userType}${u.isBlocked ? " · blocked" : ""}`,
    },
    { key: "orgs", header: "Organizations", render: (u) => u.organizationIds.map(orgName).join(", ") },
    { key: "customer", header: "Customer", render: (u) => (u.isCustomer ? "yes" : "no") },
    removeColumn(
      (id) => remove.mutate({ id }),
      (u) => ({
        name: [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || "this user",
        consequences: [
          "They can no longer sign in to the portal.",
          "A user with licenses assigned is not removed: reassign the licenses first.",
        ],
      }),
    ),
  ];

  return (
    <CustomerListPanel
      id="users"
      title="Users"
      exportList="customer-users"
      query={view.query}
      pending={view.pending}
      problem={problemFrom(list.error ?? remove.error)}
      onDismiss={() => remove.reset()}
      filters={
        <>
          <SearchFilter view={view} name="q" label="Filter users" placeholder="Email, name or reference…" />
          <SelectFilter
            view={view}
            name="organizationId"
            label="Filter by organization"
            any="All organizations"
            options={orgOptions}
          />
          <CheckboxFilter view={view} name="blocked">
            Blocked only
          </CheckboxFilter>
        </>
      }
      addForm={<UserAddForm organizations={orgOptions} />}
    >
      <ListTable
        view={view}
        list={list}
        caption="Users"
        columns={columns}
        rowKey={(u) => u.id}
        empty="No user matches."
      />
    </CustomerListPanel>
  );
}
