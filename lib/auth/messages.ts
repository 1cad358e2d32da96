/**
 * What the sign-in page and form say about a failed sign-in. The reason travels as a code (the
 * `error` parameter of next-auth's answer and of /login), never as text, so a link such as
 * `/login?error=Your password expired. Sign in at https://evil.example` shows no text of its
 * sender's: a code not listed here shows GENERIC. Pure: the server (the page,
 * lib/auth/options.ts) and the browser (lib/auth/client.ts) use the same table.
 */
export const SIGN_IN_ERRORS = {
  CredentialsSignin: "Wrong email or password.",
  Locked: "Too many failed sign-in attempts. Try again later.",
  Inactive: "This account has been deactivated. Ask your project lead.",
  Missing: "Enter your email and password.",
  SignInFailed: "Sign-in failed on the server. Try again shortly.",
  SessionRequired: "Sign in to see that page.",
} as const;

export type TSignInError = keyof typeof SIGN_IN_ERRORS;
export const GENERIC_SIGN_IN_ERROR = "Sign-in failed. Try again.";

/** The throttle's message with its wait (the Retry-After of the refused attempt). */
export function lockedMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Too many failed sign-in attempts. Try again in ${wait}.`;
}

/** The message for an `error` code (null: no error); `Locked` with its wait when known. */
export function signInErrorMessage(code: string | null | undefined, retryAfterSeconds?: number | null): string | null {
  if (code === null || code === undefined || code === "") return null;
  if (code === "Locked" && retryAfterSeconds && retryAfterSeconds > 0) return lockedMessage(retryAfterSeconds);
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code as TSignInError] : GENERIC_SIGN_IN_ERROR;
}
