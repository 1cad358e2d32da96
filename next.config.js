// @ts-check
import { readFileSync, writeFileSync } from "node:fs";

/**
 * Headers of every response the proxy (proxy.ts, pages only) does not make: API answers, media,
 * static files. The same values as STATIC_HEADERS and RESOURCE_CSP in lib/http/security.ts
 * (tests/integration/security-headers.test.ts checks both kinds of response).
 */
const STATIC_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
];
const RESOURCE_CSP = { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; sandbox" };

// Tests, benchmarks and parallel builds may use their own output folder. Next adds
// `<distDir>/types/**/*.ts` to the tsconfig it type-checks with when that pattern is missing; for
// another folder than .next it would rewrite the tracked tsconfig.json, so such a build reads an
// untracked tsconfig (ignored by git) that extends tsconfig.json and already lists the folder.
const distDir = process.env.NEXT_DIST_DIR || ".next";
/** @returns {string | undefined} */
function tsconfigFor(/** @type {string} */ dir) {
  if (dir === ".next") return undefined;
  /** @type {{ include: string[] }} */
  const base = JSON.parse(readFileSync("tsconfig.json", "utf8"));
  const path = `tsconfig.dist-${dir.replace(/[^A-Za-z0-9_-]+/g, "_")}.json`;
  const config = {
    extends: "./tsconfig.json",
    include: [...base.include, `${dir}/types/**/*.ts`, `${dir}/dev/types/**/*.ts`],
  };
  writeFileSync(path, JSON.stringify(config, null, 2) + "\n");
  return path;
}
const tsconfigPath = tsconfigFor(distDir);

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  distDir,
  // The CLI and the app share lib/; the generated Prisma clients import with .ts extensions.
  typescript: { ignoreBuildErrors: false, ...(tsconfigPath ? { tsconfigPath } : {}) },
  // forbidden() renders app/forbidden.tsx with HTTP 403 (lib/auth/page.ts).
  experimental: { authInterrupts: true },
  async headers() {
    return [
      { source: "/:path*", headers: STATIC_HEADERS },
      // Pages get their policy with a nonce from proxy.ts; everything else this one.
      { source: "/api/:path*", headers: [RESOURCE_CSP] },
      { source: "/_next/:path*", headers: [RESOURCE_CSP] },
      { source: "/icon.svg", headers: [RESOURCE_CSP] },
      { source: "/favicon.ico", headers: [RESOURCE_CSP] },
    ];
  },
};

export default nextConfig;
