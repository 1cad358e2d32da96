import { runCli } from "./cli.ts";
import { registerAgreement } from "./commands/agreement.ts";
import { registerEval } from "./commands/eval.ts";
import { registerFuse } from "./commands/fuse.ts";

/**
 * The file-only commands (no database), which bin/assessor.mjs runs from one cached bundle of
 * this file instead of through tsx: a large evaluation should not spend half a second loading
 * modules. The names must match FAST_COMMANDS in bin/assessor.mjs.
 */
await runCli([registerEval, registerFuse, registerAgreement]);
