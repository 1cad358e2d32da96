// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The CLI and the app share lib/; the generated Prisma clients import with .ts extensions.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
