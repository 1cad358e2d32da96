import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { parseRange } from "../../lib/media/range.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "./annotate-fixture.ts";

/**
 * Range-serving of self-hosted videos. Expected values follow RFC 9110 §14:
 * "bytes=0-99" of a 1000-byte file is bytes 0..99 (100 bytes); "bytes=-100" the last 100;
 * "bytes=900-" 900..999; a first byte at or past the end is unsatisfiable (416, Content-Range: bytes *\/size).
 */
describe("parseRange", () => {
  it("reads single ranges, suffixes and open ends", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange("bytes=990-2000", 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange("bytes=0-0,5-9", 1000)).toEqual({ start: 0, end: 0 });
  });
  it("says unsatisfiable for ranges past the end, and ignores what it cannot read", () => {
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=5000-6000", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseRange(null, 1000)).toBeNull();
    expect(parseRange("items=0-9", 1000)).toBeNull();
    expect(parseRange("bytes=9-3", 1000)).toBeNull();
    expect(parseRange("bytes=abc", 1000)).toBeNull();
  });
});

useTestDatabase();
let fx: TFixture;
let ann: string;
let lead: string;
const root = join(import.meta.dirname, "..", "..");
const file = readFileSync(join(root, "demo/media/bm25.mp4"));
// A second media root holding a link to a file outside every root, and a file outside.
const extraRoot = mkdtempSync(join(tmpdir(), "media-root-"));
const outside = mkdtempSync(join(tmpdir(), "media-outside-"));
const hostile: Record<string, number> = {};

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  // One video by a path relative to the project root, one by an absolute path.
  fx = await seedAnnotationFixture(await getDb());
  await (
    await getDb()
  ).video.update({ where: { id: fx.privateVideo.id }, data: { path: join(root, "demo/media/bm25.mp4") } });
  writeFileSync(join(outside, "private.mp4"), "bytes outside the media root");
  symlinkSync(join(outside, "private.mp4"), join(extraRoot, "link.mp4"));
  writeFileSync(join(extraRoot, "clip.webm"), "a webm clip");
  writeFileSync(join(extraRoot, "notes.txt"), "not media");
  // Rows as a lead could have written them before imports checked paths.
  const db = await getDb();
  const paths = {
    passwd: "/etc/passwd",
    secret: "data/.secret",
    traversal: "demo/media/../../data/.secret",
    dots: "../../../../../../etc/passwd",
    link: join(extraRoot, "link.mp4"),
    text: join(extraRoot, "notes.txt"),
    outsideMp4: join(outside, "private.mp4"),
    extra: join(extraRoot, "clip.webm"),
  };
  for (const [name, path] of Object.entries(paths))
    hostile[name] = (
      await db.video.create({ data: { projectId: fx.project.id, externalId: `hostile-${name}`, title: name, path } })
    ).id;
});
const server = useTestServer({
  env: { ASSESSOR_MEDIA_ROOT: `${join(root, "demo/media")}:${join(root, "media")}:${extraRoot}` },
});
beforeAll(async () => {
  ann = await server.cookie("ann@example.org", PASSWORDS.ann);
  lead = await server.cookie("lead@example.org", PASSWORDS.lead);
});

afterAll(async () => {
  rmSync(extraRoot, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const media = (id: number, cookie: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${server.url}/api/media/${id}`, { method, headers: { Cookie: cookie, ...headers } });

describe("/api/media/[videoId]", () => {
  it("answers a range with 206, Content-Range and exactly those bytes", async () => {
    const r = await media(fx.fileVideo.id, ann, { Range: "bytes=100-1099" });
    expect(r.status).toBe(206);
    expect(r.headers.get("content-range")).toBe(`bytes 100-1099/${file.length}`);
    // Next's route-handler response drops Content-Length (it sends chunked); Content-Range carries the sizes.
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await r.arrayBuffer()).equals(file.subarray(100, 1100))).toBe(true);
  });
  it("serves a suffix range and an open-ended one", async () => {
    const tail = await media(fx.fileVideo.id, ann, { Range: "bytes=-10" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
    const rest = await media(fx.fileVideo.id, ann, { Range: `bytes=${file.length - 20}-` });
    expect(rest.headers.get("content-range")).toBe(`bytes ${file.length - 20}-${file.length - 1}/${file.length}`);
    expect((await rest.arrayBuffer()).byteLength).toBe(20);
  });
  it("answers an unsatisfiable range with 416 and the size", async () => {
    const r = await media(fx.fileVideo.id, ann, { Range: `bytes=${file.length}-` });
    expect(r.status).toBe(416);
    expect(r.headers.get("content-range")).toBe(`bytes */${file.length}`);
  });
  it("serves the whole file with 200 without a Range header, and HEAD without a body", async () => {
    const r = await media(fx.fileVideo.id, ann);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer()).equals(file)).toBe(true);
    const h = await media(fx.fileVideo.id, ann, {}, "HEAD");
    expect(h.status).toBe(200);
    expect(h.headers.get("accept-ranges")).toBe("bytes");
    expect((await h.arrayBuffer()).byteLength).toBe(0);
  });
  it("serves an absolute path to a lead; refuses strangers and unknown videos", async () => {
    const abs = await media(fx.privateVideo.id, lead, { Range: "bytes=0-3" });
    expect(abs.status).toBe(206);
    expect(Buffer.from(await abs.arrayBuffer()).equals(file.subarray(0, 4))).toBe(true);
    expect((await media(fx.privateVideo.id, ann, { Range: "bytes=0-3" })).status).toBe(404);
    expect((await media(fx.fileVideo.id, "")).status).toBe(401);
    expect((await media(999999, lead)).status).toBe(404);
    // A video with only a URL (YouTube) has no file to serve: the player loads it from YouTube.
    expect((await media(fx.ytVideo.id, lead)).status).toBe(404);
  });
});

describe("media confinement", () => {
  it("refuses /etc/passwd, data/.secret, ../ traversal, a symlink out of the root and non-media files, even to a lead", async () => {
    for (const name of ["passwd", "secret", "traversal", "dots", "link", "text", "outsideMp4"]) {
      const r = await media(hostile[name], lead);
      const body = await r.text();
      expect([name, r.status]).toEqual([name, 403]);
      expect(body).toContain("outside the media root");
      expect(body).not.toContain("root:");
    }
  });
  it("serves a video or audio file inside a configured root with its media type", async () => {
    const r = await media(hostile.extra, lead);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("video/webm");
    expect(await r.text()).toBe("a webm clip");
  });
});
