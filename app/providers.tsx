"use client";

import type { ReactNode } from "react";
import { z } from "zod";
import { QueryProvider } from "@/lib/query/provider";

// Zod compiles object parsers with `new Function` unless told not to; the pages' policy has no
// 'unsafe-eval' (lib/http/security.ts), so zod's probe would be reported as a violation.
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
