import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/session";
import { MyProfile } from "@/components/identity/my-profile";

export const metadata: Metadata = { title: "Your profile" };

export default async function PortalProfilePage() {
  await requireUser("consumer");
  return (
    <>
      <div className="page-head">
        <h1>Your profile</h1>
        <p className="muted">
          <Link href="/portal">Back to your licenses</Link>
        </p>
      </div>
      <MyProfile />
    </>
  );
}
