import http from "node:http";

const MB = 1024 * 1024;

/**
 * POSTs `total` bytes to `url` in 1 MB chunks of `fill` (chunked, or with Content-Length when
 * `declare`), stopping as soon as the server answers; resolves with the answer and how many
 * bytes were sent by then. For tests of body limits (a server that reads everything would take
 * them all).
 */
export function streamPost(
  url: URL,
  headers: Record<string, string>,
  total: number,
  fill: string,
  declare = false,
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = http.request(
      url,
      { method: "POST", headers: { ...headers, ...(declare ? { "Content-Length": String(total) } : {}) } },
      (r) => {
        answered = true;
        let body = "";
        r.on("data", (d: Buffer) => (body += d.toString()));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body, sent }));
      },
    );
    req.on("error", (e) => (answered ? undefined : reject(e)));
    const chunk = Buffer.alloc(MB, fill);
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
