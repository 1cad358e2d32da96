import { AdjudicatePage } from "@/components/adjudicate/AdjudicatePage";
import { requirePagePermission } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function Adjudicate() {
  await requirePagePermission("adjudicate", "/adjudicate");
  return <AdjudicatePage />;
}
