/** Where a video plays from: a file served by /api/media (confined to the media roots), YouTube, or a URL. Shared by the annotator's view and the write screen. */
export type TVideoSource = { src: string; kind: "file" | "youtube" | "url"; title: string; durationSeconds: number | null };

export function videoSource(video: { id: number; url: string | null; path: string | null; title: string; durationSeconds: number | null }): TVideoSource {
  const base = { title: video.title, durationSeconds: video.durationSeconds };
  if (video.path) return { ...base, src: `/api/media/${video.id}`, kind: "file" };
  const url = video.url ?? "";
  return { ...base, src: url, kind: /^https?:\/\/(www\.|m\.)?(youtube\.com|youtu\.be)\//i.test(url) ? "youtube" : "url" };
}
