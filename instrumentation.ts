/**
 * Next.js calls register() once when a server instance starts. On the Node.js runtime it records
 * each request's socket address for the sign-in throttle (lib/auth/peer.ts), and schedules
 * the dashboard warm-up (lib/dashboard/warm.ts) shortly after start, in the background: the
 * server answers requests meanwhile. ASSESSOR_DASHBOARD_WARMUP=0 turns it off.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddress } = await import("./lib/auth/peer.ts");
  installPeerAddress();
  if (process.env.ASSESSOR_DASHBOARD_WARMUP === "0") return;
  const timer = setTimeout(() => {
    void (async () => {
      const started = Date.now();
      try {
        const { getDb } = await import("./lib/db/client.ts");
        const { warmDashboards } = await import("./lib/dashboard/warm.ts");
        const projects = await warmDashboards(await getDb());
        if (projects.length)
          console.log(
            `[dashboard] warmed project${projects.length > 1 ? "s" : ""} ${projects.join(", ")} in ${Date.now() - started} ms`,
          );
      } catch (e) {
        console.warn(
          "[dashboard] warm-up failed (the dashboard computes on first request instead):",
          e instanceof Error ? e.message : e,
        );
      }
    })();
  }, 250);
  timer.unref();
}
