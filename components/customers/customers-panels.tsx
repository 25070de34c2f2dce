"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { Pager } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";
import { ExportCsvLink } from "../operations/export-link";

/** Customer organizations and users (User.* and Organization.* events go out from these changes). */
export function CustomersPanels() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const userView = useListState({ key: "users" });
  const orgView = useListState({ key: "orgs" });
  const [email, setEmail] = useState("");
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [userOrg, setUserOrg] = useState("");
  const [orgName, setOrgName] = useState("");
  const [country, setCountry] = useState("");
  const users = useQuery({
    ...trpc.customers.users.queryOptions(userView.query),
    placeholderData: keepPreviousData,
  });
  const orgs = useQuery({
    ...trpc.customers.organizations.queryOptions(orgView.query),
    placeholderData: keepPreviousData,
  });
  const allOrgs = useQuery(trpc.customers.organizations.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
  const createUser = useMutation(
    trpc.customers.createUser.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setEmail("");
        setFirstName("");
        setLastName("");
      },
    }),
  );
  const createOrg = useMutation(
    trpc.customers.createOrganization.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setOrgName("");
        setCountry("");
      },
    }),
  );
  const deleteUser = useMutation(trpc.customers.deleteUser.mutationOptions({ onSuccess: invalidate }));
  const deleteOrg = useMutation(trpc.customers.deleteOrganization.mutationOptions({ onSuccess: invalidate }));
  const orgName_ = (id: string) => allOrgs.data?.items.find((o) => o.id === id)?.name ?? id;

  function addUser(event: FormEvent) {
    event.preventDefault();
    createUser.mutate({
      email: email.trim() || null,
      firstName: firstName.trim() || null,
      lastName: lastName.trim() || null,
      externalReference: null,
      userType: "Consumer",
      roles: ["LicenseConsumer"],
      organizationIds: userOrg ? [userOrg] : [],
      isApproved: true,
      isBlocked: false,
      userId: null,
      origin: "admin",
    });
  }
  function addOrg(event: FormEvent) {
    event.preventDefault();
    createOrg.mutate({
      name: orgName.trim(),
      externalReference: null,
      parentId: null,
      organizationType: "Customer",
      emailDomain: null,
      country: country.trim().toUpperCase() || null,
      invoiceDetails: null,
      origin: "admin",
    });
  }

  return (
    <>
      <section className="panel" aria-labelledby="orgs-heading">
        <div className="panel-head">
          <h2 id="orgs-heading">Organizations</h2>
          <ExportCsvLink list="customer-organizations" query={orgView.query} pending={orgView.pending} />
        </div>
        <ProblemAlert
          problem={problemFrom(orgs.error ?? createOrg.error ?? deleteOrg.error)}
          onDismiss={() => {
            createOrg.reset();
            deleteOrg.reset();
          }}
        />
        <form className="toolbar" onSubmit={addOrg}>
          <input
            aria-label="Organization name"
            placeholder="Name"
            value={orgName}
            onChange={(e) => setOrgName(e.target.value)}
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
            disabled={createOrg.isPending || !orgName.trim()}
          >
            Add organization
          </button>
        </form>
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Organizations">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Country</th>
                <th scope="col">Origin</th>
                <th scope="col">Created</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {(orgs.data?.items ?? []).map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`/admin/customers/organizations/${o.id}`}>{o.name}</Link>
                  </td>
                  <td>{o.country ?? ""}</td>
                  <td>{o.origin}</td>
                  <td>{formatDateTime(o.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-ghost"
                      onClick={() => deleteOrg.mutate({ id: o.id })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={orgs.data} onPage={orgView.setPageNumber} />
      </section>
      <section className="panel" aria-labelledby="users-heading">
        <div className="panel-head">
          <h2 id="users-heading">Users</h2>
          <ExportCsvLink list="customer-users" query={userView.query} pending={userView.pending} />
        </div>
        <ProblemAlert
          problem={problemFrom(users.error ?? createUser.error ?? deleteUser.error)}
          onDismiss={() => {
            createUser.reset();
            deleteUser.reset();
          }}
        />
        <form className="toolbar" onSubmit={addUser}>
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
          <select aria-label="Organization" value={userOrg} onChange={(e) => setUserOrg(e.target.value)}>
            <option value="">No organization</option>
            {(allOrgs.data?.items ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-small btn-primary" disabled={createUser.isPending}>
            Add user
          </button>
        </form>
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Organizations</th>
                <th scope="col">Customer</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {(users.data?.items ?? []).map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link href={`/admin/customers/users/${u.id}`}>
                      {u.email ?? <span className="muted">none</span>}
                    </Link>
                  </td>
                  <td>{[u.firstName, u.lastName].filter(Boolean).join(" ")}</td>
                  <td>
                    {u.userType}
                    {u.isBlocked ? " · blocked" : ""}
                  </td>
                  <td>{u.organizationIds.map(orgName_).join(", ")}</td>
                  <td>{u.isCustomer ? "yes" : "no"}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-ghost"
                      onClick={() => deleteUser.mutate({ id: u.id })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={users.data} onPage={userView.setPageNumber} />
      </section>
    </>
  );
}
