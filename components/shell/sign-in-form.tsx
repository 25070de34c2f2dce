"use client";

import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { Field } from "../ui/field";
import { formatCountOf } from "../ui/format";
import { useHydrated } from "../ui/use-hydrated";

const CHOOSE_TENANT = "choose-tenant";
const RATE_LIMITED = "rate-limited:";
const USER_BLOCKED = "blocked";

/** Email/password sign-in against one next-auth credentials provider (`staff` or `consumer`). */
export function SignInForm({ provider, home }: { provider: "staff" | "consumer"; home: string }) {
  const [error, setError] = useState<string | null>(null);
  const [needsTenant, setNeedsTenant] = useState(false);
  const [busy, setBusy] = useState(false);
  const tenantRef = useRef<HTMLInputElement>(null);
  // Before hydration a click would submit the form natively (a GET carrying the password).
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signIn(provider, {
      redirect: false,
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      tenant: String(form.get("tenant") ?? ""),
    });
    if (result?.ok && !result.error) {
      // A full load, so the server layouts read the new session cookie.
      window.location.assign(home);
      return;
    }
    setBusy(false);
    if (result?.error === CHOOSE_TENANT) {
      setNeedsTenant(true);
      setError("This email has accounts with several vendors; enter the vendor's organisation id.");
      tenantRef.current?.focus();
    } else if (result?.error === USER_BLOCKED) {
      setError("This account is blocked by the vendor; contact them to have it unblocked.");
    } else if (result?.error?.startsWith(RATE_LIMITED)) {
      const minutes = Math.max(1, Math.ceil(Number(result.error.slice(RATE_LIMITED.length)) / 60));
      setError(
        `Too many failed sign-ins for this email from here; try again in ${formatCountOf(minutes, "minute")}.`,
      );
    } else {
      setError("The email or password is not right.");
    }
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate={false}>
      {error ? (
        <div className="alert alert-error" role="alert" data-testid="sign-in-error">
          {error}
        </div>
      ) : null}
      <Field label="Email" htmlFor="email">
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </Field>
      <Field label="Password" htmlFor="password">
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Field
        label={needsTenant ? "Organisation id" : "Organisation id (optional)"}
        htmlFor="tenant"
        hint="Only needed when your email is registered with several vendors."
      >
        <input
          id="tenant"
          name="tenant"
          type="text"
          ref={tenantRef}
          required={needsTenant}
          autoComplete="organization"
        />
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy || !hydrated}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
