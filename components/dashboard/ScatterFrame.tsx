"use client";

import type { ReactNode } from "react";
import { CartesianGrid, Legend, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";

type TAxis = { key: string; name: string };

/**
 * A dashboard scatter chart, 260 px high: the grid, the x axis titled below (`x.domain`, `x.unit`
 * when given), the y axis on [0, 1], `extra` (a z axis, reference lines), the tooltip (numbers to
 * three decimals) and the legend above the plot; `children`: the series.
 */
export function ScatterFrame({
  width,
  x,
  y,
  extra,
  children,
}: {
  width: number;
  x: TAxis & { title: string; domain?: [number, number]; unit?: string };
  y: TAxis;
  extra: ReactNode;
  children: ReactNode;
}) {
  return (
    <ScatterChart width={width} height={260} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis
        type="number"
        dataKey={x.key}
        name={x.name}
        {...(x.unit === undefined ? {} : { unit: x.unit })}
        {...(x.domain === undefined ? {} : { domain: x.domain })}
        fontSize={11}
        label={{ value: x.title, position: "insideBottom", offset: -8, fontSize: 11 }}
      />
      <YAxis type="number" dataKey={y.key} name={y.name} domain={[0, 1]} fontSize={11} />
      {extra}
      <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
      {/* Above the plot: at the bottom it covered the x axis's title. */}
      <Legend verticalAlign="top" wrapperStyle={{ fontSize: 11 }} />
      {children}
    </ScatterChart>
  );
}
