"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ZProfileUpdate, type TProfileUpdate } from "@/server/domain/identity/profile/profile";
import {
  ZPasswordChangeRequest,
  type TPasswordChangeRequest,
} from "@/server/domain/identity/profile/change-password.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { ConfirmDialog, Form, TextField, useSchemaForm } from "../ui/form";

/** Portal profile: name (editable), email (shown), password change, signing out other sessions. */
export function MyProfile() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.me.profile.queryOptions());
  const [saved, setSaved] = useState<string | null>(null);
  const nameForm = useSchemaForm<TProfileUpdate, TProfileUpdate>(ZProfileUpdate, {
    defaultValues: { name: "" },
  });
  const rename = useMutation(
    trpc.me.updateProfile.mutationOptions({
      onSuccess: async () => {
        setSaved("Your name is saved.");
        await queryClient.invalidateQueries({ queryKey: trpc.me.pathKey() });
      },
      onError: nameForm.showProblem,
    }),
  );
  const passwordForm = useSchemaForm<TPasswordChangeRequest, TPasswordChangeRequest>(ZPasswordChangeRequest, {
    defaultValues: { currentPassword: "", newPassword: "" },
  });
  const changePassword = useMutation(
    trpc.me.changePassword.mutationOptions({
      onSuccess: async () => {
        passwordForm.reset();
        setSaved("Your password is changed. Your other sessions are signed out.");
        await queryClient.invalidateQueries({ queryKey: trpc.me.profile.pathKey() });
      },
      onError: passwordForm.showProblem,
    }),
  );
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const signOutOthers = useMutation(
    trpc.me.signOutOtherSessions.mutationOptions({
      onSuccess: async () => {
        setConfirmSignOut(false);
        setSaved("Your other sessions are signed out.");
        await queryClient.invalidateQueries({ queryKey: trpc.me.profile.pathKey() });
      },
    }),
  );
  if (profile.error) return <ProblemAlert problem={problemFrom(profile.error)} />;
  if (!profile.data) return <p className="muted">Loading…</p>;
  return (
    <div className="portal-panels">
      {saved ? (
        <p className="alert alert-ok" role="status">
          {saved}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="profile-details">
        <h2 id="profile-details">Your details</h2>
        <p>
          Email: <strong>{profile.data.email}</strong>{" "}
          <span className="muted small">(your vendor changes it for you)</span>
        </p>
        <Form
          form={nameForm}
          id="profile-name"
          onSubmit={(payload) => {
            setSaved(null);
            rename.mutate(payload);
          }}
        >
          <TextField name="name" label="Name" placeholder={profile.data.name} autoComplete="name" />
          <button type="submit" className="btn btn-primary" disabled={rename.isPending}>
            Save name
          </button>
        </Form>
      </section>
      <section className="panel" aria-labelledby="profile-password">
        <h2 id="profile-password">Password</h2>
        <p className="muted small">
          Changing your password signs out your other sessions. Too many wrong current passwords make you
          wait, as on the sign-in page.
        </p>
        <Form
          form={passwordForm}
          id="profile-password-form"
          onSubmit={(payload) => {
            setSaved(null);
            changePassword.mutate(payload);
          }}
        >
          <TextField
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
          />
          <TextField name="newPassword" label="New password" type="password" autoComplete="new-password" />
          <button type="submit" className="btn btn-primary" disabled={changePassword.isPending}>
            Change password
          </button>
        </Form>
      </section>
      <section className="panel" aria-labelledby="profile-sessions">
        <h2 id="profile-sessions">Sessions</h2>
        <p className="muted small">
          {profile.data.sessionsValidFrom
            ? `Other sessions were last signed out ${formatDateTime(profile.data.sessionsValidFrom)}.`
            : "You may be signed in on other browsers or computers."}
        </p>
        <button type="button" className="btn" onClick={() => setConfirmSignOut(true)}>
          Sign out other sessions
        </button>
        <ConfirmDialog
          open={confirmSignOut}
          title="Sign out your other sessions?"
          confirmLabel="Sign out other sessions"
          busy={signOutOthers.isPending}
          error={signOutOthers.error}
          consequences={[
            "Every other browser or computer signed in as you is signed out at its next step.",
            "This browser stays signed in.",
          ]}
          onCancel={() => setConfirmSignOut(false)}
          onConfirm={() => signOutOthers.mutate()}
        />
      </section>
    </div>
  );
}
