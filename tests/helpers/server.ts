import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";

const root = join(import.meta.dirname, "..", "..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export type RunningServer = {
  url: string;
  /** The `next start` process (for memory readings in /proc). */
  pid: number;
  stop: () => Promise<void>;
  logs: () => string;
  /** Sends `signal` (SIGKILL for a crash) and resolves when the process is gone. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

/**
 * Serves the production build (`next build`, in NEXT_DIST_DIR or .next) on a free port against
 * DATABASE_URL, with NEXTAUTH_URL matching the real origin (next-auth sets no cookie otherwise).
 */
export async function startServer(
  env: Record<string, string | undefined> = {},
  opts: { port?: number } = {},
): Promise<RunningServer> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(root, distDir, "BUILD_ID")))
    throw new Error(`no production build in ${distDir}: run \`npx next build\` first (npm test does)`);
  // A given port lets a restarted server take over its predecessor's address (crash tests).
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: {
        ...process.env,
        NEXTAUTH_URL: url,
        NEXTAUTH_SECRET: "test-secret-not-for-production",
        ...env,
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer /api/health within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const kill = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return { url, pid: child.pid ?? 0, logs: () => output, stop: () => kill("SIGTERM"), kill };
}

export function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error("no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH");
  return found;
}

/** Debian's chromium, headless, with the flags this closed network needs (../shared/STACK.md). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}

export const artifactsDir = join(root, "test-results");
