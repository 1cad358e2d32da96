import type { ReactNode } from "react";
import { ApiError } from "@/lib/query/fetcher";

type TRead = { isPending: boolean; error: Error | null };

/**
 * A read not done yet: `loading` while it is pending, else its error as an alert (`failed`, then
 * the error's message), else nothing. `padded`: the read stands for the whole page.
 */
export function ReadState({
  query,
  loading,
  failed,
  padded = false,
}: {
  query: TRead;
  loading: string;
  failed: string;
  padded?: boolean;
}) {
  const pad = padded ? "p-6 " : "";
  if (query.isPending) return <p className={`${pad}text-slate-600`}>{loading}</p>;
  if (!query.error) return null;
  return (
    <p role="alert" className={`${pad}text-red-700`}>
      {`${failed}: `}
      {query.error.message}
    </p>
  );
}

/** The card where a queue ends: its heading, then what the page says there. */
export function EndOfQueueCard({
  heading,
  spaced = false,
  children,
}: {
  heading: ReactNode;
  spaced?: boolean;
  children?: ReactNode;
}) {
  return (
    <section
      aria-label="End of queue"
      className={`${spaced ? "space-y-2 " : ""}rounded-md border border-slate-200 p-6`}
    >
      <h1 className="text-lg font-semibold">{heading}</h1>
      {children}
    </section>
  );
}

/** The decision that stands when the server refused this one (409: another adjudicator decided first). */
export function standingOf<T>(e: Error): T | null | undefined {
  return e instanceof ApiError && e.status === 409
    ? (e.details as { standing?: T | null } | undefined)?.standing
    : undefined;
}
