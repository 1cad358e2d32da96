import { redirect } from "next/navigation";
import { LoginForm } from "@/components/shell/LoginForm";
import { safeCallback } from "@/lib/auth/redirect";
import { homeFor } from "@/lib/auth/permissions";
import { signInErrorMessage } from "@/lib/auth/messages";
import { getSession } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  // The app's origin when configured; a callback that leads anywhere else is dropped.
  const callback = safeCallback(
    typeof params.callbackUrl === "string" ? params.callbackUrl : null,
    process.env.NEXTAUTH_URL || undefined,
  );
  const session = await getSession();
  if (session) redirect(callback ?? homeFor(session.user.role));
  // A code, shown as one of the known messages: never the parameter's own text (lib/auth/messages.ts).
  const error = signInErrorMessage(typeof params.error === "string" ? params.error : null);
  return (
    <main className="mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-6 text-2xl font-semibold">Sign in to Assessor</h1>
      <LoginForm callbackUrl={callback ?? "/"} initialError={error} />
    </main>
  );
}
