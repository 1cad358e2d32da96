import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { annotatorItem } from "@/lib/annotate/view";

/** One assigned item (404 for anything not assigned to the caller: the check is in the query). */
export const GET = route({ roles: ["annotator"] }, async ({ user, params }) => {
  const id = typeof params.itemId === "string" ? params.itemId : "";
  const item = await annotatorItem(await getDb(), user.id, id);
  if (!item) throw new AppError("not_found", "no such item in your queue");
  return item;
});
