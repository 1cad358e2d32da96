import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { mayWatch } from "@/lib/annotate/view";
import { serveFile } from "@/lib/media/serve";
import { intId } from "@/lib/bounds";

/** Self-hosted video files, with Range support so the player can seek (lib/media/serve.ts). */
const handler = route({ roles: ["annotator", "adjudicator", "lead"] }, async ({ user, params, req }) => {
  const id = intId(params.videoId);
  if (id === null) throw new AppError("not_found", "no such video");
  const video = await mayWatch(await getDb(), user, id);
  if (!video) throw new AppError("not_found", "no such video");
  return serveFile(video.path, req);
});

export const GET = handler;
export const HEAD = handler;
