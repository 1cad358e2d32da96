/** The agreement panels' shapes (lib/dashboard/agreement.ts), one block per report shown. */
import type { AgreementReport } from "../../stats/agreement/report.ts";

export type TAgreementBlock = { name: string; report: AgreementReport | null; empty: string | null };
export type TAgreementPanel = {
  judges: TAgreementBlock[];
  empty: string | null;
  slice: { tag: string | null; system: string | null };
};
export type THumanPanel = {
  overall: TAgreementBlock;
  pairs: TAgreementBlock[];
  alphaAllRaters: number | null;
  items: number;
  empty: string | null;
};
export type TBreakdownRow = {
  slice: string;
  kind: "tag" | "system";
  judge: TAgreementBlock | null;
  human: TAgreementBlock;
};
export type TBreakdownsPanel = { judge: string | null; rows: TBreakdownRow[]; resamples: number };
