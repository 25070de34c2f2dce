"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  staffRoleDescriptions,
  staffRoleLabels,
  staffRoles,
  type StaffRole,
} from "@/server/domain/identity/staff-roles/staff-roles";
import type { TStaffUserResponse } from "@/server/domain/identity/staff-roles/staff-users";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { StaffInviteDialog } from "./staff-invite-dialog";
import { formatDate } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";

const roleOptions = staffRoles.map((role) => [role, staffRoleLabels[role]] as const);

/** Staff users and their roles: invite, change role, disable and enable (docs/security.md "Staff roles"). */
export function StaffUsersTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.me.get.queryOptions());
  const canManage = me.data?.permissions.includes("users.write") ?? false;
  const view = useListState({
    filters: { q: "", role: "" },
    terms: (f) => [f.q && `email@=*${sieveValue(f.q)}`, f.role && `staffRole==${f.role}`],
  });
  const list = useQuery({
    ...trpc.staffUsers.list.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const [inviting, setInviting] = useState(false);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.staffUsers.pathKey() });
  const changeRole = useMutation(trpc.staffUsers.changeRole.mutationOptions({ onSuccess: invalidate }));
  const disable = useMutation(trpc.staffUsers.disable.mutationOptions({ onSuccess: invalidate }));
  const enable = useMutation(trpc.staffUsers.enable.mutationOptions({ onSuccess: invalidate }));

  const columns: Column<TStaffUserResponse>[] = [
    { key: "email", header: "Email", sortField: "email", render: (u) => <strong>{u.email}</strong> },
    { key: "name", header: "Name", sortField: "name", render: (u) => u.name },
    {
      key: "role",
      header: "Role",
      sortField: "staffRole",
      render: (u) =>
        canManage && u.id !== me.data?.userId ? (
          <select
            aria-label={`Role of ${u.email}`}
            value={u.staffRole ?? ""}
            disabled={changeRole.isPending}
            onChange={(e) => {
              changeRole.reset();
              changeRole.mutate({ userId: u.id, staffRole: e.target.value as StaffRole });
            }}
          >
            {roleOptions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        ) : (
          <span className="badge">{u.staffRole ? staffRoleLabels[u.staffRole] : "none"}</span>
        ),
    },
    {
      key: "status",
      header: "Status",
      render: (u) =>
        u.disabledAt ? (
          <span className="badge badge-danger">disabled</span>
        ) : (
          <span className="badge badge-ok">active</span>
        ),
    },
    { key: "created", header: "Since", sortField: "createdAt", render: (u) => formatDate(u.createdAt) },
    {
      key: "actions",
      header: "",
      render: (u) =>
        !canManage || u.id === me.data?.userId ? null : u.disabledAt ? (
          <button type="button" className="btn btn-small" onClick={() => enable.mutate({ userId: u.id })}>
            Enable
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => disable.mutate({ userId: u.id })}
          >
            Disable
          </button>
        ),
    },
  ];
  return (
    <>
      <div className="toolbar">
        <SearchFilter view={view} name="q" label="Filter by email" placeholder="Filter by email…" />
        <SelectFilter view={view} name="role" label="Role" any="All roles" options={roleOptions} />
        <span className="toolbar-spacer" />
        {canManage ? (
          <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
            Invite user
          </button>
        ) : null}
      </div>
      <ProblemAlert
        problem={problemFrom(list.error ?? changeRole.error ?? disable.error ?? enable.error)}
        onDismiss={() => {
          changeRole.reset();
          disable.reset();
          enable.reset();
        }}
      />
      <ListTable
        view={view}
        list={list}
        caption="Staff users"
        columns={columns}
        rowKey={(u) => u.id}
        empty={view.isFiltered ? "No staff user matches this filter." : "No staff users."}
      />
      <dl className="role-legend muted small">
        {staffRoles.map((role) => (
          <div key={role}>
            <dt>{staffRoleLabels[role]}</dt>
            <dd>{staffRoleDescriptions[role]}</dd>
          </div>
        ))}
      </dl>
      {inviting ? <StaffInviteDialog onClose={() => setInviting(false)} /> : null}
    </>
  );
}
