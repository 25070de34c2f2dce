"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import {
  staffRoleDescriptions,
  staffRoleLabels,
  staffRoles,
  type StaffRole,
} from "@/server/domain/identity/staff-roles/staff-roles";
import type { z } from "zod";
import { ZStaffInviteRequest } from "@/server/domain/identity/staff-roles/staff-users.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { CopyButton } from "../ui/copy-button";
import { Form, SelectField, TextField, useSchemaForm } from "../ui/form";

type Values = { email: string; name: string; staffRole: StaffRole };

/** Invites a staff user with a role; the one-time password is shown once, right after. */
export function StaffInviteDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, z.infer<typeof ZStaffInviteRequest>>(ZStaffInviteRequest, {
    defaultValues: { email: "", name: "", staffRole: "read-only" },
    // A blank name is no name: the API then shows the email.
    toPayload: (v) => ({ ...v, name: v.name.trim() || undefined }),
  });
  const invite = useMutation(
    trpc.staffUsers.invite.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.staffUsers.pathKey() }),
      onError: form.showProblem,
    }),
  );
  const role = useWatch({ control: form.control, name: "staffRole" });

  if (invite.data) {
    return (
      <Dialog
        open
        title="User invited"
        onClose={onClose}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="alert alert-warn" role="status">
          Pass this one-time password to {invite.data.user.email}; it is shown only this once.
        </div>
        <p>
          <code className="secret" data-testid="invite-password">
            {invite.data.password}
          </code>{" "}
          <CopyButton value={invite.data.password} label="Copy password" />
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog
      open
      title="Invite a staff user"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="invite-form" className="btn btn-primary" disabled={invite.isPending}>
            {invite.isPending ? "Inviting…" : "Invite"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="invite-form"
        onSubmit={(payload) => {
          invite.reset();
          invite.mutate(payload);
        }}
      >
        <TextField name="email" label="Email" type="email" autoComplete="off" />
        <TextField name="name" label="Name" />
        <SelectField
          name="staffRole"
          label="Role"
          hint={staffRoleDescriptions[role]}
          options={staffRoles.map((r) => ({ value: r, label: staffRoleLabels[r] }))}
        />
      </Form>
    </Dialog>
  );
}
