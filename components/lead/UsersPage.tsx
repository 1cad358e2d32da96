"use client";

import { useState, type FormEvent } from "react";
import { ROLES, type TRole } from "@/lib/auth/permissions";
import { useCreateUser, useUpdateUser, useUsers, type TUserRow } from "@/lib/query/lead";
import { Button, ErrorBox, InputField, Section, SelectField, SubmitCell, Success } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

function ResetPassword({ user }: { user: TUserRow }) {
  const update = useUpdateUser();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const id = `reset-${user.id}`;
  if (!open)
    return (
      <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Reset password of ${user.email}`}>
        Reset password
      </Button>
    );
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { id: user.id, password },
          {
            onSuccess: () => {
              setOpen(false);
              setPassword("");
            },
          },
        );
      }}
    >
      <InputField
        label={`New password for ${user.email}`}
        id={id}
        type="password"
        autoComplete="new-password"
        minLength={8}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
      />
      <Button
        type="submit"
        disabled={update.isPending || password.length < 8}
        aria-label={`Confirm password reset for ${user.email}`}
      >
        Set password
      </Button>
      <Button variant="secondary" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      <ErrorBox error={update.error} />
    </form>
  );
}

/** `self`: the signed-in lead's own row, which has no Deactivate (the server refuses it too: lib/users setActive). */
function UserRow({ user, self }: { user: TUserRow; self: boolean }) {
  const update = useUpdateUser();
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="py-2 pr-2">
        {user.name}
        {self ? <span className="ml-1 text-xs text-slate-500">(you)</span> : null}
      </td>
      <td className="py-2 pr-2 break-all">{user.email}</td>
      <td className="py-2 pr-2">{user.role}</td>
      <td className="py-2 pr-2">{user.active ? "active" : <span className="text-red-700">deactivated</span>}</td>
      <td className="space-y-2 py-2">
        <div className="flex gap-2">
          {self ? (
            <p className="text-xs text-slate-600">Your own account: another lead can deactivate it.</p>
          ) : (
            <Button
              variant={user.active ? "danger" : "secondary"}
              disabled={update.isPending}
              onClick={() => update.mutate({ id: user.id, active: !user.active })}
              aria-label={`${user.active ? "Deactivate" : "Reactivate"} ${user.email}`}
            >
              {user.active ? "Deactivate" : "Reactivate"}
            </Button>
          )}
        </div>
        <ResetPassword user={user} />
        <ErrorBox error={update.error} />
      </td>
    </tr>
  );
}

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r }));

function AddUser() {
  const create = useCreateUser();
  const [created, setCreated] = useState<string | null>(null);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    setCreated(null);
    create.mutate(
      {
        email: String(f.get("email")),
        name: String(f.get("name")),
        role: String(f.get("role")) as TRole,
        password: String(f.get("password")),
      },
      {
        onSuccess: (u) => {
          setCreated(u.email);
          form.reset();
        },
      },
    );
  }
  return (
    <Section title="Add user" id="add-user">
      <form onSubmit={onSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-4">
        <InputField label="Name" id="user-name" name="name" required />
        <InputField label="Email" id="user-email" name="email" type="email" required />
        <SelectField label="Role" id="user-role" name="role" defaultValue="annotator" options={ROLE_OPTIONS} />
        <InputField
          label="Initial password"
          id="user-password"
          name="password"
          hint="At least 8 characters"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        <SubmitCell className="sm:col-span-4" pending={create.isPending}>
          Add user
        </SubmitCell>
      </form>
      <ErrorBox error={create.error} />
      {created ? <Success>Added {created}.</Success> : null}
    </Section>
  );
}

export function UsersPage({ selfId }: { selfId: string }) {
  const users = useUsers();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Users</h1>
      <Section title="All users" id="users">
        <ErrorBox error={users.error} />
        {users.data ? (
          <ScrollRegion label="Users">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-500">
                <tr>
                  <th className="py-1">Name</th>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Status</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((u) => (
                  <UserRow key={u.id} user={u} self={u.id === selfId} />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        ) : null}
      </Section>
      <AddUser />
    </div>
  );
}
