// @ts-check
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
};

export default nextConfig;
