// @ts-check

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

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Tests and parallel builds may use their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The CLI and the app share lib/; the generated Prisma clients import with .ts extensions.
  typescript: { ignoreBuildErrors: false },
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
