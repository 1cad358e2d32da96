import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { createUser, listUsers, ZRole } from "@/lib/users/users";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageUsers");

// Shapes only; createUser validates the values themselves (email form, password length).
const ZUserCreate = z.object({ email: z.string(), name: z.string(), role: ZRole, password: z.string() });

const serialize = <U extends { createdAt: Date }>(u: U) => ({ ...u, createdAt: u.createdAt.toISOString() });

export const GET = route({ roles }, async () => (await listUsers(await getDb())).map(serialize));

export const POST = route({ roles, body: ZUserCreate }, async ({ body }) =>
  Response.json(serialize(await createUser(await getDb(), body)), { status: 201 }),
);
