import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs `assessor ARGS…` as a separate process, as a user would, against DATABASE_URL. */
export function runCli(args: string[], opts: { input?: string; env?: Record<string, string | undefined>; cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
    cwd: opts.cwd ?? root,
    input: opts.input,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
