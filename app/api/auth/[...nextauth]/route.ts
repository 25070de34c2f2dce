import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";

// GET, POST /api/auth/*: next-auth (credentials sign-in for staff and consumers, JWT sessions).
const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
