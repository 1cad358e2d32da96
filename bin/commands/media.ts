import type { Command } from "commander";
import { out, projectOption, withProject } from "../context.ts";

/**
 * `assessor media check`: each video of the project with its kind (file, youtube, url, none) and
 * whether it can play (lib/media/check.ts); exit 1 when any cannot (missing file, outside the
 * media root, host not allowed, or with --probe unreachable).
 */
export function registerMedia(program: Command): void {
  const media = program.command("media").description("check the project's video media");
  media
    .command("check")
    .description(
      "list each video: kind, ok / missing / outside / not_allowed / unreachable, file size; exit 1 when any cannot play",
    )
    .option("--probe", "send a HEAD request to each allowed remote URL")
    .option("--json", "print one JSON object")
    .addOption(projectOption())
    .action(async (opts: { probe?: boolean; json?: boolean; project?: string }) => {
      const { checkMedia } = await import("../../lib/media/check.ts");
      const r = await withProject(opts.project, (db, project) => checkMedia(db, project.id, { probe: opts.probe }));
      const bad = r.videos.filter((v) => v.status !== "ok");
      if (opts.json) out(JSON.stringify(r));
      else {
        for (const h of r.ignoredHosts)
          process.stderr.write(
            `warning: ASSESSOR_MEDIA_HOSTS: ignored "${h}": expected an origin (https://host[:port]) or a host\n`,
          );
        for (const v of r.videos)
          out([v.video, v.kind, v.status, v.bytes === null ? "-" : String(v.bytes), v.detail].join("\t"));
        out(
          `${r.videos.length} video${r.videos.length === 1 ? "" : "s"}: ${r.videos.length - bad.length} ok, ${bad.length} with a problem`,
        );
      }
      if (bad.length > 0) process.exitCode = 1;
    });
}
