import Link from "next/link";

/** Rendered with HTTP 403 when a signed-in user opens a page their role does not allow. */
export default function Forbidden() {
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold">403: not allowed</h1>
      <p className="mt-2 text-slate-600">Your role does not give access to this page.</p>
      <Link href="/" className="mt-4 inline-block text-indigo-700 underline">
        Go to your start page
      </Link>
    </main>
  );
}
