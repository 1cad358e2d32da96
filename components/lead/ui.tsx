import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from "react";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

export function Section({
  title,
  id,
  children,
  description,
}: {
  title: string;
  id: string;
  children: ReactNode;
  description?: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      {/* Focusable (not a Tab stop) so the project page's section keys can move focus here (ProjectNav). */}
      <h2 id={`${id}-title`} tabIndex={-1} className="scroll-mt-14 text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function Field({
  label,
  htmlFor,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

/**
 * A project's list as a table in a named scroll region (`label`), one `row` each under `headers`;
 * `empty` says there is none yet; nothing while the list is not read.
 */
export function ListTable<T>({
  items,
  label,
  empty,
  headers,
  row,
}: {
  items: readonly T[] | undefined;
  label: string;
  empty: string;
  headers: ReactNode[];
  row: (item: T) => ReactNode;
}) {
  if (!items) return null;
  if (items.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return (
    <ScrollRegion label={label}>
      <table className="mt-2 w-full text-left text-sm">
        <thead>
          <tr className="text-slate-600">
            {headers.map((h, i) => (
              <th key={i} className={i < headers.length - 1 ? "py-1 pr-3 font-medium" : "py-1 font-medium"}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map((item) => row(item))}</tbody>
      </table>
    </ScrollRegion>
  );
}

/** A labelled input: `id` ties the label to it; the other props go to the input. */
export function InputField({
  label,
  hint,
  id,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; hint?: string }) {
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <input id={id} {...props} className={inputClass} />
    </Field>
  );
}

/** The project's pool depth (top K of each run per query) as a required input within the bounds the server takes. */
export const poolDepthInput = (project: { poolDepth: number }) =>
  ({ type: "number", min: 1, max: 1000, defaultValue: project.poolDepth, required: true }) as const;

/** The project's annotators per item as a required input within the bounds the server takes. */
export const perItemInput = (project: { annotatorsPerItem: number }) =>
  ({ type: "number", min: 1, max: 10, defaultValue: project.annotatorsPerItem, required: true }) as const;

/** A labelled select with a fixed list of options. */
export function SelectField({
  label,
  hint,
  id,
  name,
  defaultValue,
  options,
}: {
  label: string;
  hint?: string;
  id: string;
  name: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A form's submit button on a grid row of its own (`className` spans the grid's columns). */
export function SubmitCell({
  className,
  pending,
  children,
}: {
  className: string;
  pending: boolean;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Button type="submit" disabled={pending}>
        {children}
      </Button>
    </div>
  );
}

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm focus:border-indigo-500";

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger" }) {
  const styles = {
    primary: "bg-indigo-600 text-white hover:bg-indigo-700",
    secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
    danger: "border border-red-300 bg-white text-red-700 hover:bg-red-50",
  }[variant];
  return (
    <button
      type="button"
      {...props}
      className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60 ${styles} ${className}`}
    />
  );
}

/** An error from an API call; located import errors are listed one per line. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const details = (error as { details?: unknown }).details;
  const located = Array.isArray(details)
    ? details.filter(
        (d): d is { file: string; line: number; field?: string; message: string } =>
          typeof d === "object" && d !== null && "line" in d && "message" in d,
      )
    : [];
  const issues = Array.isArray(details)
    ? details.filter(
        (d): d is { path: string; message: string } =>
          typeof d === "object" && d !== null && "path" in d && "message" in d,
      )
    : [];
  return (
    <div role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {located.length > 0 ? (
        <>
          <p className="font-medium">
            {located.length} error{located.length === 1 ? "" : "s"}: nothing from this file was imported.
          </p>
          <ul aria-label="Errors by line" className="mt-2 max-h-64 space-y-1 overflow-auto font-mono text-xs">
            {located.map((e, i) => (
              <li key={i}>
                {e.file}:{e.line}
                {e.field ? `: ${e.field}` : ""}: {e.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <p>{message}</p>
          {issues.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {issues.map((i, k) => (
                <li key={k}>
                  {i.path ? `${i.path}: ` : ""}
                  {i.message}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </div>
  );
}

export function Success({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-3 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800">
      {children}
    </p>
  );
}
