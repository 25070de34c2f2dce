"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZCustomerUserCreateRequest,
  type TCustomerUserResponse,
} from "@/server/domain/customers/customer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CustomerListPanel, removeColumn } from "./customer-list-panel";

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
  const orgName = (id: string) => orgs.data?.items.find((o) => o.id === id)?.name ?? id;
  const [email, setEmail] = useState("");
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [organizationId, setOrganizationId] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
  const create = useMutation(
    trpc.customers.createUser.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setEmail("");
        setFirstName("");
        setLastName("");
      },
    }),
  );
  const remove = useMutation(trpc.customers.deleteUser.mutationOptions({ onSuccess: invalidate }));

  function add(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    const parsed = ZCustomerUserCreateRequest.safeParse({
      email: email.trim() || null,
      firstName: firstName.trim() || null,
      lastName: lastName.trim() || null,
      organizationIds: organizationId ? [organizationId] : [],
      origin: "admin",
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }

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
    removeColumn((id) => remove.mutate({ id })),
  ];

  return (
    <CustomerListPanel
      id="users"
      title="Users"
      exportList="customer-users"
      query={view.query}
      pending={view.pending}
      problem={localProblem ?? problemFrom(list.error ?? create.error ?? remove.error)}
      onDismiss={() => {
        setLocalProblem(null);
        create.reset();
        remove.reset();
      }}
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
      addForm={
        <form className="toolbar" onSubmit={add}>
          <input
            aria-label="Email"
            placeholder="Email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <input
            aria-label="First name"
            placeholder="First name"
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <input
            aria-label="Last name"
            placeholder="Last name"
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
          <select
            aria-label="Organization"
            value={organizationId}
            onChange={(e) => setOrganizationId(e.target.value)}
          >
            <option value="">No organization</option>
            {orgOptions.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-small btn-primary" disabled={create.isPending}>
            Add user
          </button>
        </form>
      }
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
