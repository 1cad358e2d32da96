import { videoSource, type TVideoSource } from "../media/source.ts";

/** One chunk the generator was given with an answer, as the annotator and the adjudicator see it. */
export type TAnswerContextView = {
  position: number;
  text: string;
  startSeconds: number;
  endSeconds: number;
  video: TVideoSource;
};

/** What is read of an answer's context (Prisma `context` relation): its chunks in order, each with its video. */
export const CONTEXT_READ = {
  orderBy: { position: "asc" },
  select: {
    position: true,
    chunk: {
      select: {
        text: true,
        startSeconds: true,
        endSeconds: true,
        video: { select: { id: true, url: true, path: true, title: true, durationSeconds: true } },
      },
    },
  },
} as const;

/** The fields of a person's answer label that the annotator and the adjudicator are shown. */
export const LABEL_FIELDS = {
  claimVersion: true,
  claimLabels: true,
  relevance: true,
  notes: true,
  flags: true,
} as const;

/** The context as read with CONTEXT_READ, as shown. */
export function contextView(
  context: readonly {
    position: number;
    chunk: { text: string; startSeconds: number; endSeconds: number; video: Parameters<typeof videoSource>[0] };
  }[],
): TAnswerContextView[] {
  return context.map((c) => ({
    position: c.position,
    text: c.chunk.text,
    startSeconds: c.chunk.startSeconds,
    endSeconds: c.chunk.endSeconds,
    video: videoSource(c.chunk.video),
  }));
}
