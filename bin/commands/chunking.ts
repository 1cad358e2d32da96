import type { Command } from "commander";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";

/**
 * `assessor chunking transfer` and `assessor chunking grid`: subcommands of the
 * `chunking` group registered in lifecycle.ts.
 */
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export function registerChunkingCommands(chunking: Command): void {
  chunking
    .command("transfer")
    .description(
      "derive labels for chunking B from the questions' reference spans in time and the human labels of chunking A (rule version 2 in lib/stats/time/transfer.ts) and store them as the judge transfer:A->B",
    )
    .requiredOption("--from <A>", "the labelled chunking")
    .requiredOption("--to <B>", "the chunking to label")
    .option(
      "--hold-share <share>",
      "B's chunk holds the answer when it holds at least this share of a reference span (default 0.5)",
    )
    .option(
      "--part-seconds <s>",
      "B's chunk holds part of the answer from this many seconds of a reference span (default 1)",
    )
    .option("--near-seconds <s>", "B's chunk within this many seconds of a reference span is related (default 5)")
    .option(
      "--zero-share <share>",
      "B's chunk gets 0 when at least this share of its seconds is shown free of any answer (default 0: any second)",
    )
    .option(
      "--open-seconds <s>",
      "length assumed for a reference span without an end (default: the median of those with one, else 8)",
    )
    .addOption(projectOption())
    .action(
      async (o: {
        from: string;
        to: string;
        holdShare?: string;
        partSeconds?: string;
        nearSeconds?: string;
        zeroShare?: string;
        openSeconds?: string;
        project?: string;
      }) => {
        const params = {
          from: o.from,
          to: o.to,
          holdShare: decimalOption("--hold-share", o.holdShare),
          partSeconds: decimalOption("--part-seconds", o.partSeconds),
          nearSeconds: decimalOption("--near-seconds", o.nearSeconds),
          zeroShare: decimalOption("--zero-share", o.zeroShare),
          openSeconds: decimalOption("--open-seconds", o.openSeconds),
        };
        const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
        await withProject(o.project, async (db, p) => {
          const r = await transferJudge(db, p.id, params);
          const grades = [0, 1, 2, 3].map((g) => `${plural(r.byGrade[g] ?? 0, "label")} of grade ${g}`).join(", ");
          out(
            `Stored ${plural(r.labelled, "label")} of chunking ${o.to} as judge ${r.judge} (${grades}), replacing any earlier transfer of this pair.`,
          );
          out(
            `${plural(r.unjudged, "pair")} in chunking ${o.to}'s runs' top ${r.depth} (the pool depth) ${r.unjudged === 1 ? "is" : "are"} left unjudged by the transfer and not pooled yet: pool ${r.unjudged === 1 ? "it" : "them"} with: npx assessor pool --chunking ${o.to}`,
          );
        });
      },
    );

  chunking
    .command("grid")
    .description(
      "cut every size × overlap combination from the stored transcripts into chunkings named c<size>o<overlap seconds> (c20o0, c40o10), one transaction each",
    )
    .requiredOption("--sizes <seconds>", "comma-separated chunk sizes in seconds, e.g. 20,40,60")
    .requiredOption("--overlaps <list>", "comma-separated overlaps: seconds, or a share of the size such as 25%")
    .option("--videos <ids>", "comma-separated video ids (default: every video with a stored transcript)")
    .addOption(projectOption())
    .action(async (o: { sizes: string; overlaps: string; videos?: string; project?: string }) => {
      const list = (v: string) =>
        v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean);
      const sizes = list(o.sizes).map((x) => {
        const n = Number(x);
        if (!(Number.isFinite(n) && n > 0)) fail(`--sizes: expected seconds above 0, got "${x}"`);
        return n;
      });
      const { chunkingGrid } = await import("../../lib/chunkings/grid.ts");
      await withProject(o.project, async (db, p) => {
        const rows = await chunkingGrid(db, p.id, {
          sizes,
          overlaps: list(o.overlaps),
          videos: o.videos === undefined ? undefined : list(o.videos),
        });
        out(["chunking", "size", "overlap", "videos", "chunks", "new", "changed", "unchanged"].join("\t"));
        for (const r of rows)
          out([r.name, r.size, r.overlap, r.videos, r.chunks, r.created, r.updated, r.unchanged].join("\t"));
      });
    });
}
