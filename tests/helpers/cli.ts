import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs `assessor ARGS…` as a separate process, as a user would, against DATABASE_URL. */
export function runCli(
  args: string[],
  opts: { input?: string; env?: Record<string, string | undefined>; cwd?: string } = {},
): CliResult {
  const r = spawnSync(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
    cwd: opts.cwd ?? root,
    input: opts.input,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** runCli for set-up steps: returns stdout, throws with stderr when the command fails. */
export function runCliOk(args: string[]): string {
  const r = runCli(args);
  if (r.code !== 0) throw new Error(`assessor ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/**
 * runCli without blocking this process: for commands that talk to a server running in the test's
 * own process (the fake LLM of tests/helpers/fake-llm.ts), which spawnSync would starve.
 */
export function runCliAsync(
  args: string[],
  opts: { env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
