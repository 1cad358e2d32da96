import type { Db, Project } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { field, say } from "../terms.ts";

/**
 * The project a command acts on: the one named, or the only one. With none named and several
 * existing, the error lists them so the user can pick.
 */
export async function resolveProject(db: Db, name?: string): Promise<Project> {
  if (name) {
    const project = await db.project.findUnique({ where: { name } });
    if (!project) {
      const names = (await db.project.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map(
        (p) => p.name,
      );
      throw new AppError(
        "not_found",
        `no project named "${name}"${names.length ? `; projects: ${names.join(", ")}` : "; create one with: npx assessor project create NAME"}`,
      );
    }
    return project;
  }
  const projects = await db.project.findMany({ orderBy: { name: "asc" }, take: 50 });
  if (projects.length === 1) return projects[0];
  if (projects.length === 0)
    throw new AppError("not_found", "no project yet: create one with: npx assessor project create NAME");
  throw new AppError(
    "bad_input",
    say`several projects exist, choose one with ${field("project")}: ${projects.map((p) => p.name).join(", ")}`,
  );
}
