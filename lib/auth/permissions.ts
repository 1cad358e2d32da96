/**
 * Who may do what. The one table of permissions; pages, route handlers and the nav read it
 * through the can*() helpers, so a change of policy is a change here.
 */
export const ROLES = ["lead", "adjudicator", "annotator"] as const;
export type TRole = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** Grade pool items assigned to oneself (/annotate). */
  annotate: ["annotator"],
  /** Decide items whose annotators disagree (/adjudicate). */
  adjudicate: ["adjudicator", "lead"],
  /** Agreement, calibration and system statistics (/dashboard). Not for annotators: blindness. */
  viewDashboard: ["lead", "adjudicator"],
  /** Projects, settings, imports, pool, assignment, exports (/lead). */
  manageProject: ["lead"],
  /** Write questions while watching (/write); annotators only in projects that allow it (lib/questions/store.ts requireAuthor). */
  writeQuestions: ["lead", "annotator"],
  /** Add, deactivate, reset passwords. */
  manageUsers: ["lead"],
} as const satisfies Record<string, readonly TRole[]>;

export type TPermission = keyof typeof PERMISSIONS;

export function rolesFor(permission: TPermission): readonly TRole[] {
  return PERMISSIONS[permission];
}

export function can(role: TRole, permission: TPermission): boolean {
  return (PERMISSIONS[permission] as readonly TRole[]).includes(role);
}

export const canAnnotate = (role: TRole) => can(role, "annotate");
export const canAdjudicate = (role: TRole) => can(role, "adjudicate");
export const canViewDashboard = (role: TRole) => can(role, "viewDashboard");
export const canManageProject = (role: TRole) => can(role, "manageProject");
export const canManageUsers = (role: TRole) => can(role, "manageUsers");

export function isRole(value: unknown): value is TRole {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Where a user lands after signing in. */
export function homeFor(role: TRole): string {
  if (role === "annotator") return "/annotate";
  if (role === "adjudicator") return "/adjudicate";
  return "/lead";
}
