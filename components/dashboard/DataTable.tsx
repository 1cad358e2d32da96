"use client";

import { safeCsv } from "@/lib/formats/csv-write";
import { useMemo, useState, type ReactNode } from "react";

export type TColumnDef<R> = {
  key: string;
  header: string;
  /** The value sorted on and written to the CSV. */
  value: (row: R) => string | number | null;
  /** What the cell shows (default: the value, numbers to 3 decimals). */
  render?: (row: R) => ReactNode;
  title?: string;
};

export function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return v.toFixed(digits);
}

/** The header row and one row per table row (null cells empty; quoted where CSV needs it; formula cells neutralised, lib/formats/csv-write.ts). */
export function toCsv<R>(columns: TColumnDef<R>[], rows: R[]): string {
  return safeCsv([columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => c.value(r)))]);
}

/** Saves `text` as a CSV file named `name` (the browser's download). */
export function downloadCsv(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A table sortable by any column (click a header; again to reverse) with a CSV download. */
/** Downloads `csv()` as the file `name`; the button says what the file holds. */
export function CsvButton({
  name,
  csv,
  what,
  spacing = "mt-2",
}: {
  name: string;
  csv: () => string;
  what: string;
  spacing?: "mt-1" | "mt-2";
}) {
  return (
    <button
      type="button"
      className={`${spacing} text-xs text-indigo-700 underline`}
      onClick={() => downloadCsv(name, csv())}
    >
      Download CSV ({what})
    </button>
  );
}

export function DataTable<R>({
  id,
  caption,
  columns,
  rows,
  csvName,
  csvColumns,
}: {
  id: string;
  caption: string;
  columns: TColumnDef<R>[];
  rows: R[];
  csvName: string;
  csvColumns?: TColumnDef<R>[];
}) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 } | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const col = columns.find((c) => c.key === sort.key);
    if (!col) return rows;
    return [...rows].sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sort.dir;
    });
  }, [rows, columns, sort]);
  return (
    <div className="overflow-x-auto">
      <table id={id} className="w-full text-left text-sm" data-testid={id}>
        <caption className="sr-only">{caption}</caption>
        <thead className="text-slate-500">
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className="py-1 pr-3 font-medium"
                  aria-sort={active ? (sort.dir === 1 ? "ascending" : "descending") : "none"}
                  title={c.title}
                >
                  <button
                    type="button"
                    className="hover:text-slate-900"
                    onClick={() => setSort(active && sort.dir === 1 ? { key: c.key, dir: -1 } : { key: c.key, dir: 1 })}
                  >
                    {c.header}
                    {active ? (sort.dir === 1 ? " ▲" : " ▼") : ""}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r, i) => (
            <tr key={i} className="border-t border-slate-100">
              {columns.map((c) => {
                const v = c.value(r);
                return (
                  <td key={c.key} className="py-1.5 pr-3 tabular-nums">
                    {c.render ? c.render(r) : typeof v === "number" ? fmt(v) : (v ?? "–")}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <CsvButton name={csvName} csv={() => toCsv(csvColumns ?? columns, sorted)} what={caption} />
    </div>
  );
}

/** A systems table's first column: the run, marked when it is the baseline the others are tested against. */
export function runColumn<T extends { system: string }>(baseline: string | null): TColumnDef<T> {
  return {
    key: "system",
    header: "Run",
    value: (r) => r.system,
    render: (r) => (
      <>
        {r.system}
        {r.system === baseline ? <span className="ml-1 text-xs text-slate-500">(baseline)</span> : null}
      </>
    ),
  };
}
