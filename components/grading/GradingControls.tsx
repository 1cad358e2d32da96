"use client";

import type { ReactNode, RefObject } from "react";
import { KeyHelp } from "@/components/annotate/parts";
import { PreloadVideo } from "@/components/player/VideoPlayer";

/**
 * Controls shared by the grading pages (/annotate, /adjudicate). The keys themselves are bound by
 * useGradingKeys; these are the same actions for the mouse, with the accessible names the
 * browser tests find them by.
 */

/** Opens and closes the keyboard help (also the `?` key). */
export function KeysButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      className="rounded border border-slate-300 px-2 py-0.5 text-xs"
      aria-label="? keys: show keyboard shortcuts"
      onClick={onClick}
    >
      ? keys
    </button>
  );
}

/**
 * The row that ends a grading form: Enter (submit and go on), back (`backKey`: u on /annotate,
 * Backspace on /adjudicate, where u reopens the last decision), `extra` buttons, and the form's message.
 */
export function SubmitRow({
  submitLabel,
  submitText,
  onSubmit,
  backDisabled,
  onBack,
  message,
  backKey = "u",
  backLabel = `${backKey} back to the previous item`,
  extra,
}: {
  submitLabel: string;
  submitText: ReactNode;
  onSubmit: () => void;
  backDisabled: boolean;
  onBack: () => void;
  message: string | null;
  backKey?: string;
  backLabel?: string;
  extra?: ReactNode;
}) {
  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        className="rounded bg-indigo-700 px-4 py-2 text-sm text-white"
        aria-label={`Enter: ${submitLabel}`}
        onClick={() => onSubmit()}
      >
        Enter <span aria-hidden="true">▸</span> {submitText}
      </button>
      <button
        type="button"
        className="rounded border border-slate-300 px-3 py-2 text-sm"
        aria-label={backLabel}
        disabled={backDisabled}
        onClick={() => onBack()}
      >
        {backKey} <span aria-hidden="true">◂</span> back
      </button>
      {extra}
      <FormMessage message={message} />
    </div>
  );
}

/** Why the form did not go on (an alert), or nothing. */
export function FormMessage({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** A short free-text field of a grading form (notes, rationale), focused by its key and left with Esc. */
export function NoteField({
  fieldRef,
  label,
  placeholder,
  value,
  onChange,
  small = true,
}: {
  fieldRef: RefObject<HTMLTextAreaElement | null>;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  small?: boolean;
}) {
  return (
    <textarea
      ref={fieldRef}
      aria-label={label}
      rows={2}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`w-full rounded border border-slate-300 p-2${small ? " text-sm" : ""}`}
    />
  );
}

/** The adjudicator's rationale for a decision (r writes it, Esc leaves it). */
export function RationaleField({
  fieldRef,
  value,
  onChange,
}: {
  fieldRef: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <NoteField
      fieldRef={fieldRef}
      label="Rationale"
      placeholder="Short rationale (r to write, Esc to leave)"
      value={value}
      onChange={onChange}
    />
  );
}

/** What ends a grading page: the next item's video loading ahead, and the keyboard help dialog. */
export function PlayerKeysFooter({
  next,
  help,
  onCloseHelp,
  keys,
}: {
  next: { video: { src: string | null }; chunk: { startSeconds: number } } | undefined;
  help: boolean;
  onCloseHelp: () => void;
  keys?: [string, string][];
}) {
  return (
    <>
      <PreloadVideo src={next?.video.src ?? null} cueSeconds={next?.chunk.startSeconds ?? 0} />
      <KeyHelp open={help} onClose={onCloseHelp} keys={keys} />
    </>
  );
}
