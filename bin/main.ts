import { Command, CommanderError } from "commander";
import { AppError } from "../lib/errors.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerProject } from "./commands/project.ts";
import { registerImport } from "./commands/import.ts";
import { registerEval } from "./commands/eval.ts";
import { registerUser } from "./commands/user.ts";
import { registerPool } from "./commands/pool.ts";
import { registerAssign } from "./commands/assign.ts";
import { registerStatus } from "./commands/status.ts";
import { registerExport } from "./commands/export.ts";
import { registerAgreement } from "./commands/agreement.ts";
import { registerJudge } from "./commands/judge.ts";

/**
 * The `assessor` command line. Each command lives in bin/commands/<name>.ts as a register
 * function; this file wires them and maps errors to exit codes: 0 success, 1 a problem with the
 * input or the data (the message says what), 2 a usage error (commander's own message).
 */
const program = new Command("assessor")
  .description("Assessor: human reference labels for retrieval evaluation")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of [registerEval, registerAgreement, registerMigrate, registerProject, registerImport]) register(program);
for (const register of [registerUser, registerPool, registerAssign, registerStatus, registerExport, registerJudge]) register(program);

try {
  await program.parseAsync(process.argv);
  process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  if (e instanceof AppError || (e instanceof Error && e.name === "ConfigError")) {
    process.stderr.write(`error: ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}
