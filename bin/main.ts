import { runCli } from "./cli.ts";
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
import { registerFuse } from "./commands/fuse.ts";
import { registerLifecycle } from "./commands/lifecycle.ts";
import { registerMedia } from "./commands/media.ts";
import { registerAnswers } from "./commands/answers.ts";
import { registerDecide } from "./commands/decide.ts";
import { registerAnnotators } from "./commands/annotators.ts";

/**
 * The `assessor` command line. Each command lives in bin/commands/<name>.ts as a register
 * function; this file wires them (bin/cli.ts maps errors to exit codes).
 */
await runCli([
  registerEval,
  registerFuse,
  registerAgreement,
  registerMigrate,
  registerProject,
  registerImport,
  registerUser,
  registerPool,
  registerAssign,
  registerStatus,
  registerExport,
  registerJudge,
  registerLifecycle,
  registerMedia,
  registerAnswers,
  registerDecide,
  registerAnnotators,
]);
