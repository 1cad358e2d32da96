import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeAssignedItems, makeProject, makeUser } from "../helpers/factories.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { importVideos } from "../../lib/imports/videos.ts";
import { checkMedia } from "../../lib/media/check.ts";
import { mediaHosts, urlAllowed } from "../../lib/media/hosts.ts";
import { pageCsp } from "../../lib/http/security.ts";
import { ValidationError } from "../../lib/errors.ts";

/**
 * Media of every kind: a self-hosted file, a missing file (imported with a
 * warning naming the line), YouTube, a URL on a host ASSESSOR_MEDIA_HOSTS allows, one on a host it
 * does not (a warning naming the line and the variable), and no media at all; `assessor media
 * check` and its exit code; the page CSP's media-src.
 */
const HOSTS = "https://media.example.org, cdn.example.net:8080";
const testDb = useTestDatabase();
let db: Db;
let projectId: number;
let dir: string;
const saved = process.env.ASSESSOR_MEDIA_HOSTS;

const LINES = [
  { id: "file", title: "A file", path: "demo/media/bm25.mp4" },
  { id: "gone", title: "A missing file", path: "demo/media/not-there.mp4" },
  { id: "yt", title: "On YouTube", url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ" },
  { id: "cdn", title: "On an allowed host", url: "https://media.example.org/talks/one.mp4" },
  { id: "elsewhere", title: "On another host", url: "https://videos.elsewhere.example/two.mp4" },
  { id: "none", title: "Transcript only", duration: 300 },
];

beforeAll(async () => {
  process.env.ASSESSOR_MEDIA_HOSTS = HOSTS;
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeProject(db, { name: "media" })).id;
  dir = mkdtempSync(join(tmpdir(), "assessor-media-kinds-"));
});

afterAll(async () => {
  if (saved === undefined) delete process.env.ASSESSOR_MEDIA_HOSTS;
  else process.env.ASSESSOR_MEDIA_HOSTS = saved;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("importing videos of each media kind", () => {
  it("imports all six lines, warning about the missing file and the host not allowed by line", async () => {
    const file = join(dir, "videos.jsonl");
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const r = await importVideos(db, projectId, file);
    expect(r.created).toBe(6);
    expect(r.warnings).toHaveLength(2);
    const [missing, host] = r.warnings ?? [];
    expect(missing).toMatchObject({ file, line: 2, field: "path" });
    expect(missing.message).toContain("demo/media/not-there.mp4 is not there");
    expect(host).toMatchObject({ file, line: 5, field: "url" });
    expect(host.message).toContain("ASSESSOR_MEDIA_HOSTS");
    expect(host.message).toContain("https://videos.elsewhere.example");
    const none = await db.video.findFirstOrThrow({ where: { projectId, externalId: "none" } });
    expect(none).toMatchObject({ url: null, path: null, durationSeconds: 300 });
  });

  it("warns once for many URLs on hosts not allowed, with the count, the lines and the hosts", async () => {
    const file = join(dir, "many.jsonl");
    const many = Array.from({ length: 11 }, (_, i) => ({
      id: `far${i}`,
      title: `Far ${i}`,
      url: `https://${i < 10 ? "far" : "other"}.example/v${i}.mp4`,
    }));
    writeFileSync(
      file,
      [...many, { id: "near", title: "Allowed", url: "https://media.example.org/x.mp4" }]
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n",
    );
    const r = await importVideos(db, projectId, file);
    await db.video.deleteMany({ where: { projectId, externalId: { in: [...many.map((m) => m.id), "near"] } } });
    expect(r.created).toBe(12);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings![0]).toMatchObject({ file, line: 1, field: "url" });
    expect(r.warnings![0].message).toBe(
      "11 videos (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …) have URLs on hosts ASSESSOR_MEDIA_HOSTS does not allow (https://far.example: 10, https://other.example: 1): the browser will refuse to play them until ASSESSOR_MEDIA_HOSTS names https://far.example, https://other.example (comma-separated origins or hosts)",
    );
  });

  it("still refuses a line with both url and path, naming the line", async () => {
    const file = join(dir, "both.jsonl");
    writeFileSync(
      file,
      JSON.stringify({
        id: "both",
        title: "Both",
        url: "https://www.youtube.com/watch?v=x",
        path: "demo/media/bm25.mp4",
      }) + "\n",
    );
    const e = await importVideos(db, projectId, file).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).message).toMatch(/both\.jsonl:1: url: expected at most one of url .* or path/);
  });

  it("gives the annotator's view the kind, no source without media, and whether a URL may play", async () => {
    const { videoSource } = await import("../../lib/annotate/view.ts");
    const byId = new Map(
      (await db.video.findMany({ where: { projectId } })).map((v) => [v.externalId, videoSource(v)]),
    );
    expect(byId.get("file")).toMatchObject({ kind: "file", allowed: true });
    expect(byId.get("file")?.src).toMatch(/^\/api\/media\/\d+$/);
    expect(byId.get("yt")).toMatchObject({ kind: "youtube", allowed: true });
    expect(byId.get("cdn")).toMatchObject({
      kind: "url",
      allowed: true,
      src: "https://media.example.org/talks/one.mp4",
    });
    expect(byId.get("elsewhere")).toMatchObject({ kind: "url", allowed: false });
    expect(byId.get("none")).toMatchObject({ kind: "none", src: null, allowed: true, title: "Transcript only" });
  });
});

describe("the transcript's cues in the annotator's view", () => {
  it("gives the cues that start inside the chunk, with their times (the start control without a playhead)", async () => {
    const { annotatorItem } = await import("../../lib/annotate/view.ts");
    const ann = await makeUser(db, { role: "annotator" });
    const [item] = await makeAssignedItems(db, projectId, 1, [ann], "cueq");
    const chunk = await db.chunk.update({
      where: { id: item.chunkId },
      data: { startSeconds: 60, endSeconds: 95 },
      select: { videoId: true },
    });
    const cues = [
      [55, 60, "just before", 1],
      [60, 70.5, "first inside", 2],
      [70.5, 95, "second inside", 3],
      [95, 100, "just after", 4],
    ];
    await db.video.update({ where: { id: chunk.videoId }, data: { url: null } }); // transcript only
    await db.transcript.create({
      data: { projectId, videoId: chunk.videoId, fileName: "talk.vtt", sha256: "x", cues: JSON.stringify(cues) },
    });
    const view = await annotatorItem(db, ann.id, item.id);
    expect(view?.cues).toEqual([
      { text: "first inside", startSeconds: 60, endSeconds: 70.5 },
      { text: "second inside", startSeconds: 70.5, endSeconds: 95 },
    ]);
  });
});

describe("assessor media check", () => {
  it("lists each video with kind, status and size (library)", async () => {
    const r = await checkMedia(db, projectId);
    const by = new Map(r.videos.map((v) => [v.video, v]));
    expect(by.get("file")).toMatchObject({ kind: "file", status: "ok" });
    expect(by.get("file")?.bytes).toBeGreaterThan(1000);
    expect(by.get("gone")).toMatchObject({ kind: "file", status: "missing", bytes: null });
    expect(by.get("yt")).toMatchObject({ kind: "youtube", status: "ok" });
    expect(by.get("cdn")).toMatchObject({ kind: "url", status: "ok" });
    expect(by.get("elsewhere")).toMatchObject({ kind: "url", status: "not_allowed" });
    expect(by.get("none")).toMatchObject({ kind: "none", status: "ok" });
  });

  it("exits 1 while any video cannot play, 0 once all can (CLI)", async () => {
    const env = { DATABASE_URL: testDb.url, ASSESSOR_MEDIA_HOSTS: HOSTS };
    const bad = runCli(["media", "check"], { env });
    expect(bad.code, bad.stderr).toBe(1);
    const rows = new Map(
      bad.stdout
        .trim()
        .split("\n")
        .slice(0, -1)
        .map((l) => [l.split("\t")[0], l.split("\t")]),
    );
    expect(rows.get("gone")?.slice(1, 3)).toEqual(["file", "missing"]);
    expect(rows.get("elsewhere")?.slice(1, 3)).toEqual(["url", "not_allowed"]);
    expect(rows.get("file")?.slice(1, 3)).toEqual(["file", "ok"]);
    expect(Number(rows.get("file")?.[3])).toBeGreaterThan(1000);
    expect(rows.get("none")?.slice(1, 3)).toEqual(["none", "ok"]);
    expect(bad.stdout).toContain("7 videos: 5 ok, 2 with a problem");
    await db.video.deleteMany({ where: { projectId, externalId: { in: ["gone", "elsewhere"] } } });
    const good = runCli(["media", "check", "--json"], { env });
    expect(good.code, good.stderr).toBe(0);
    expect((JSON.parse(good.stdout) as { videos: unknown[] }).videos).toHaveLength(5);
  });
});

describe("ASSESSOR_MEDIA_HOSTS", () => {
  it("adds the allowed hosts to the page CSP's media-src and leaves out malformed entries", () => {
    const env = { ASSESSOR_MEDIA_HOSTS: `${HOSTS}, bad;host 'unsafe-inline', https://ok.example/` };
    expect(mediaHosts(env)).toEqual({
      hosts: ["https://media.example.org", "cdn.example.net:8080", "https://ok.example"],
      ignored: ["bad;host 'unsafe-inline'"],
    });
    const csp = pageCsp("nonce", false, env);
    expect(csp).toContain("media-src 'self' blob: https://media.example.org cdn.example.net:8080 https://ok.example;");
    expect(csp).not.toContain("bad");
    expect(pageCsp("nonce", false, {})).toContain("media-src 'self' blob:;");
  });

  it("matches an origin by scheme, host and port, a host by name and port", () => {
    const env = { ASSESSOR_MEDIA_HOSTS: HOSTS };
    expect(urlAllowed("https://media.example.org/a.mp4", env)).toBe(true);
    expect(urlAllowed("http://media.example.org/a.mp4", env)).toBe(false);
    expect(urlAllowed("https://media.example.org.evil.example/a.mp4", env)).toBe(false);
    expect(urlAllowed("http://cdn.example.net:8080/a.mp4", env)).toBe(true);
    expect(urlAllowed("https://cdn.example.net/a.mp4", env)).toBe(false);
  });
});
