import { Command, CommanderError } from "commander";
import { AppError } from "../lib/errors.ts";

/**
 * Runs the `assessor` command line with the given commands registered and maps errors to exit
 * codes: 0 success, 1 a problem with the input or the data (the message says what), 2 a usage error
 * (commander's own message). bin/main.ts registers every command; bin/fast.ts only the file-only
 * ones that bin/assessor.mjs starts from a bundle.
 */
export async function runCli(registers: readonly ((program: Command) => void)[]): Promise<never> {
  const program = new Command("assessor")
    .description("Assessor: human reference labels for retrieval evaluation")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const register of registers) register(program);
  try {
    await program.parseAsync(process.argv);
    await flushed(process.stdout);
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    if (e instanceof AppError || (e instanceof Error && e.name === "ConfigError")) {
      process.stderr.write(`error: ${e instanceof AppError ? e.sayTo("cli") : e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  }
}

/**
 * Waits until what was written to the stream has been handed to the OS: process.exit() would cut
 * off a large output still queued for a pipe (`assessor eval -q … | less`).
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write("", () => resolve());
  });
}
