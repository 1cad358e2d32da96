import { Command, Option } from "commander";
import { out, withDb } from "../context.ts";
import { AppError } from "../../lib/errors.ts";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new AppError(
      "bad_input",
      "--password-stdin: pipe the password in, e.g. printf '%s' \"$PW\" | npx assessor …",
    );
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline (from echo) is not part of the password.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export function registerUser(program: Command): void {
  const user = program.command("user").description("add, list, deactivate users and reset passwords");
  user
    .command("add")
    .description("add a user; without --password-stdin a random password is generated and printed once")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--name <name>", "display name")
    .addOption(
      new Option("--role <role>", "what the user may do")
        .choices(["lead", "adjudicator", "annotator"])
        .makeOptionMandatory(),
    )
    .option("--password-stdin", "read the password from standard input")
    .action(
      async (opts: {
        email: string;
        name: string;
        role: "lead" | "adjudicator" | "annotator";
        passwordStdin?: boolean;
      }) => {
        const { createUser, generatePassword } = await import("../../lib/users/users.ts");
        const password = opts.passwordStdin ? await readStdin() : generatePassword();
        await withDb(async (db) => {
          const u = await createUser(db, { email: opts.email, name: opts.name, role: opts.role, password });
          out(`added ${u.role} ${u.email} (${u.name})`);
          if (!opts.passwordStdin) out(`password: ${password}  (shown once: pass it on now)`);
        });
      },
    );
  user
    .command("list")
    .description("list users")
    .option("--json", "print JSON lines")
    .action(async (opts: { json?: boolean }) => {
      const { listUsers } = await import("../../lib/users/users.ts");
      await withDb(async (db) => {
        const users = await listUsers(db);
        for (const u of users)
          out(
            opts.json ? JSON.stringify(u) : `${u.email}\t${u.name}\t${u.role}\t${u.active ? "active" : "deactivated"}`,
          );
        if (!users.length && !opts.json)
          out("no users (add one with: npx assessor user add --email E --name N --role lead)");
      });
    });
  user
    .command("deactivate")
    .argument("<email>", "the user's email")
    .description("deactivate a user: they can no longer sign in; their labels stay")
    .action(async (email: string) => {
      const { setActive } = await import("../../lib/users/users.ts");
      await withDb(async (db) => {
        const u = await setActive(db, { email }, false);
        out(`deactivated ${u.email}`);
      });
    });
  user
    .command("activate")
    .argument("<email>", "the user's email")
    .description("reactivate a deactivated user")
    .action(async (email: string) => {
      const { setActive } = await import("../../lib/users/users.ts");
      await withDb(async (db) => {
        const u = await setActive(db, { email }, true);
        out(`activated ${u.email}`);
      });
    });
  user
    .command("reset-password")
    .argument("<email>", "the user's email")
    .description("set a new password; without --password-stdin a random one is generated and printed once")
    .option("--password-stdin", "read the new password from standard input")
    .action(async (email: string, opts: { passwordStdin?: boolean }) => {
      const { setPassword, generatePassword } = await import("../../lib/users/users.ts");
      const password = opts.passwordStdin ? await readStdin() : generatePassword();
      await withDb(async (db) => {
        const u = await setPassword(db, { email }, password);
        out(`password reset for ${u.email}`);
        if (!opts.passwordStdin) out(`password: ${password}  (shown once: pass it on now)`);
      });
    });
}
