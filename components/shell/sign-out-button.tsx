"use client";

import { signOut } from "next-auth/react";

export function SignOutButton({ callbackUrl }: { callbackUrl: string }) {
  return (
    <button type="button" className="btn btn-ghost btn-small" onClick={() => signOut({ callbackUrl })}>
      Sign out
    </button>
  );
}
