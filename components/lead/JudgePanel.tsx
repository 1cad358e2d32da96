"use client";

import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { money, timeLeft } from "@/lib/judge/format";
import {
  useJudgeRunAction,
  useJudgeRuns,
  usePreviewPrompt,
  useStartJudgeRun,
  useTryJudge,
  type TRunSettingsInput,
  type TRunSummary,
} from "@/lib/query/judge";
import { Button, ErrorBox, Field, InputField, Section, Success, inputClass } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";
import { ProbeForm } from "./ProbeForm";

const num = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? undefined : Number(v));

/** The form's values as run settings (the server validates them again with the same schema). */
function settingsOf(form: HTMLFormElement): TRunSettingsInput {
  const f = new FormData(form);
  const template = String(f.get("template") ?? "");
  const only = String(f.get("only") ?? "").trim();
  return {
    target: f.get("target") === "answers" ? "answers" : "chunks",
    judge: String(f.get("judge") ?? ""),
    model: String(f.get("model") ?? ""),
    baseUrl: String(f.get("baseUrl") ?? ""),
    // "no key": an empty variable name (the server sends no Authorization header).
    apiKeyEnv: f.get("noKey") ? "" : String(f.get("apiKeyEnv") ?? ""),
    only: only || undefined,
    samples: num(f.get("samples")),
    temperature: num(f.get("temperature")),
    concurrency: num(f.get("concurrency")),
    limit: num(f.get("limit")),
    maxCost: num(f.get("maxCost")),
    priceIn: num(f.get("priceIn")),
    priceOut: num(f.get("priceOut")),
    template: template.trim() ? template : undefined,
  };
}

function RunRow({ run, projectId }: { run: TRunSummary; projectId: number }) {
  const rate = run.rate;
  const action = useJudgeRunAction(projectId);
  const [confirming, setConfirming] = useState(false);
  const c = run.counts;
  const finished = c.done + c.failed;
  const pct = c.total ? Math.floor((finished / c.total) * 100) : 100;
  // A run whose workers all stopped (a server restarted, a CLI killed) still says running: it can be resumed.
  const active = (run.status === "running" || run.status === "queued") && run.workers > 0;
  const left = c.total - finished;
  return (
    <tr className="border-t border-slate-100 align-top" data-judge-run={run.judge}>
      <td className="py-2 pr-3">
        <Link
          className="font-medium text-indigo-700 underline"
          href={`/dashboard?project=${projectId}&judge=${encodeURIComponent(run.judge)}`}
          title="Judge vs human on the dashboard"
        >
          {run.judge}
        </Link>
        <div className="text-xs text-slate-500">run {run.id}</div>
      </td>
      <td className="py-2 pr-3">
        <div>{run.model}</div>
        <div className="text-xs text-slate-500" title={run.baseUrl}>
          prompt <code>{run.templateSha256.slice(0, 12)}</code> ·{" "}
          {run.target === "answers" ? <span data-target="answers">answers: </span> : null}
          {run.subset}
          {run.samples > 1 ? ` · ${run.samples} samples, T ${run.params.temperature}` : ""}
        </div>
      </td>
      <td className="w-64 py-2 pr-3">
        <div
          className="h-2 w-full overflow-hidden rounded bg-slate-100"
          role="progressbar"
          aria-label={`run ${run.judge} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
        >
          <div className={`h-2 ${c.failed ? "bg-amber-500" : "bg-indigo-600"}`} style={{ width: `${pct}%` }} />
        </div>
        <div className="mt-1 text-xs text-slate-600" data-progress>
          {finished}/{c.total} ({pct}%) · {c.failed} failed · {c.cached} cached
          {active
            ? rate === null
              ? " · time left: estimating…"
              : ` · ${rate.toFixed(1)}/s · ~${timeLeft(left / rate)} left`
            : ""}
        </div>
        {c.flagged ? (
          <div className="text-xs text-amber-800" data-flagged={c.flagged}>
            {run.target === "answers"
              ? `${c.flagged} answer(s) flagged: the answer or its context reads like instructions to a model (possible prompt injection); check their labels`
              : `${c.flagged} pair(s) flagged: the chunk reads like instructions to a model (possible prompt injection); check their grades`}
          </div>
        ) : null}
        {run.retest ? (
          <div className="text-xs text-slate-600">
            test–retest κ {run.retest.kappa.linear?.toFixed(2) ?? "–"} (linear) ·{" "}
            {run.retest.unstableShare === null ? "–" : `${(run.retest.unstableShare * 100).toFixed(0)}%`} of pairs
            differ between samples
          </div>
        ) : null}
      </td>
      <td className="py-2 pr-3">
        <span data-status={run.status} className="font-medium">
          {run.status}
        </span>
        {run.workers ? <span className="text-xs text-slate-500"> · {run.workers} worker(s)</span> : null}
        {run.stopReason ? <div className="max-w-xs text-xs text-slate-600">{run.stopReason}</div> : null}
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        <div>{money(run.cost)}</div>
        <div className="text-xs text-slate-500">
          {run.tokens.prompt.toLocaleString("en")} in / {run.tokens.completion.toLocaleString("en")} out
        </div>
      </td>
      <td className="py-2 text-right whitespace-nowrap">
        {active && confirming ? (
          <div role="group" aria-label={`Cancel run ${run.judge}?`} className="space-y-1 text-left text-xs">
            <p>
              Cancel {run.judge} for good? {run.target === "answers" ? "Answers" : "Pairs"} not yet judged stay
              unjudged; a cancelled run cannot be resumed.
            </p>
            <Button
              variant="danger"
              disabled={action.isPending}
              onClick={() =>
                action.mutate({ runId: run.id, action: "cancel" }, { onSettled: () => setConfirming(false) })
              }
            >
              Cancel the run
            </Button>{" "}
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep running
            </Button>
          </div>
        ) : active ? (
          <Button variant="danger" disabled={action.isPending} onClick={() => setConfirming(true)}>
            Cancel…
          </Button>
        ) : (run.status === "stopped" ||
            run.status === "running" ||
            run.status === "queued" ||
            (run.status === "completed" && c.failed > 0)) &&
          (left > 0 || c.failed > 0) ? (
          <Button
            variant="secondary"
            disabled={action.isPending}
            onClick={() => action.mutate({ runId: run.id, action: "resume", retryFailed: left === 0 })}
          >
            {left === 0 ? "Retry failed" : "Resume"}
          </Button>
        ) : null}
        <ErrorBox error={action.error} />
      </td>
    </tr>
  );
}

/**
 * The lead's LLM judge: endpoint, model and template (with a preview on a pair and a trial on a
 * few pairs), start / cancel / resume, live progress, and the history of runs. The API key stays
 * on the server: the form names the environment variable that holds it.
 */
export function JudgePanel({ projectId }: { projectId: number }) {
  const runs = useJudgeRuns(projectId);
  const start = useStartJudgeRun(projectId);
  const preview = usePreviewPrompt(projectId);
  const trial = useTryJudge(projectId);
  const formRef = useRef<HTMLFormElement>(null);
  const [showTemplate, setShowTemplate] = useState(false);
  const [noKey, setNoKey] = useState(false);
  const [target, setTarget] = useState<"chunks" | "answers">("chunks");
  const d = runs.data?.defaults;
  const answers = target === "answers";
  const placeholders = d ? (answers ? d.answers.placeholders : d.placeholders) : [];

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    start.mutate(settingsOf(e.currentTarget));
  }
  const form = () => (formRef.current ? settingsOf(formRef.current) : null);

  return (
    <Section
      title="LLM judge"
      id="judge"
      description="Grades the pool, or the generated answers' claims and relevance, with any OpenAI-compatible model (OpenAI, vLLM, Ollama, llama.cpp, LiteLLM), blind as an annotator is. Each run is a judge on the dashboard. The API key stays on the server: give the name of the server's environment variable that holds it."
    >
      <ErrorBox error={runs.error} />
      {d ? (
        <form
          ref={formRef}
          onSubmit={onSubmit}
          className="grid grid-cols-1 gap-3 sm:grid-cols-4"
          aria-label="New judge run"
        >
          <fieldset className="sm:col-span-4">
            <legend className="text-sm font-medium">Judge</legend>
            <div className="mt-1 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-1">
                <input
                  type="radio"
                  name="target"
                  value="chunks"
                  checked={!answers}
                  onChange={() => setTarget("chunks")}
                />{" "}
                Question–chunk pairs (grade 0–3)
              </label>
              <label className="flex items-center gap-1">
                <input
                  type="radio"
                  name="target"
                  value="answers"
                  checked={answers}
                  onChange={() => setTarget("answers")}
                />{" "}
                Generated answers (each claim s / p / n / x, relevance 0–3)
              </label>
            </div>
          </fieldset>
          <InputField
            label="Judge name"
            id="judge-name"
            name="judge"
            required
            placeholder="llama-umbrela-v1"
            hint="How the dashboard calls this run."
          />
          <InputField label="Model" id="judge-model" name="model" required placeholder="gpt-4o-mini" />
          <InputField
            label="Base URL"
            id="judge-base-url"
            name="baseUrl"
            required
            placeholder="http://localhost:11434/v1"
          />
          <div>
            <InputField
              label="API key variable"
              id="judge-key-env"
              name="apiKeyEnv"
              defaultValue={d.apiKeyEnv}
              required={!noKey}
              disabled={noKey}
              hint="Set on the server. A name ending in _API_KEY or starting with OPENAI_, or one the operator allows."
            />
            <label className="mt-1 flex items-center gap-1 text-xs text-slate-600">
              <input type="checkbox" name="noKey" checked={noKey} onChange={(e) => setNoKey(e.target.checked)} /> No key
              (a local server without keys)
            </label>
          </div>
          <InputField
            key={target}
            label={answers ? "Answers" : "Pairs"}
            id="judge-only"
            name="only"
            defaultValue={answers ? d.answers.only : d.only}
            hint={answers ? d.answers.subsets : "pool, unlabelled, calibration, or a query tag"}
          />
          <InputField
            label="Samples"
            id="judge-samples"
            name="samples"
            type="number"
            min={1}
            max={20}
            defaultValue={d.samples}
            hint="Above 1: test–retest, needs temperature > 0"
          />
          <InputField
            label="Temperature"
            id="judge-temperature"
            name="temperature"
            type="number"
            min={0}
            max={2}
            step="0.1"
            defaultValue={d.temperature}
          />
          <InputField
            label="Concurrency"
            id="judge-concurrency"
            name="concurrency"
            type="number"
            min={1}
            max={256}
            defaultValue={d.concurrency}
          />
          <InputField
            label={answers ? "Limit (answers)" : "Limit (pairs)"}
            id="judge-limit"
            name="limit"
            type="number"
            min={1}
            hint="Optional"
          />
          <InputField
            label="Max cost (USD)"
            id="judge-max-cost"
            name="maxCost"
            type="number"
            min={0}
            step="any"
            hint="Optional; needs both prices"
          />
          <InputField
            label="Price in (USD / 1M tokens)"
            id="judge-price-in"
            name="priceIn"
            type="number"
            min={0}
            step="any"
          />
          <InputField
            label="Price out (USD / 1M tokens)"
            id="judge-price-out"
            name="priceOut"
            type="number"
            min={0}
            step="any"
          />
          <div className="sm:col-span-4">
            <button
              type="button"
              className="text-sm text-indigo-700 underline"
              aria-expanded={showTemplate}
              onClick={() => setShowTemplate((v) => !v)}
            >
              {showTemplate ? "Hide the prompt template" : "Edit the prompt template"}
            </button>
            <div className={showTemplate ? "mt-2" : "hidden"}>
              <Field
                label="Template"
                htmlFor="judge-template"
                hint={`Placeholders: ${placeholders.map((p) => `{{${p.name}}}`).join(" ")}. The model never sees the system, rank or score.`}
              >
                <textarea
                  key={target}
                  id="judge-template"
                  name="template"
                  rows={14}
                  defaultValue={answers ? d.answers.template : d.template}
                  className={`${inputClass} font-mono text-xs`}
                />
              </Field>
            </div>
          </div>
          <div className="flex flex-wrap gap-2 sm:col-span-4">
            <Button
              variant="secondary"
              disabled={preview.isPending}
              onClick={() => {
                const s = form();
                if (s) preview.mutate({ template: s.template, only: s.only, target: s.target });
              }}
            >
              Preview prompt
            </Button>
            {answers ? null : (
              <Button
                variant="secondary"
                disabled={trial.isPending}
                onClick={() => {
                  const s = form();
                  if (s) trial.mutate({ ...s, judge: s.judge || "trial" });
                }}
              >
                {trial.isPending ? "Trying…" : `Try on ${d.trialPairs} pairs (random)`}
              </Button>
            )}
            <Button type="submit" disabled={start.isPending}>
              {start.isPending ? "Checking the endpoint…" : "Start run"}
            </Button>
          </div>
        </form>
      ) : null}
      <ErrorBox error={preview.error ?? trial.error ?? start.error} />
      {start.data ? (
        <Success>
          Run {start.data.id} ({start.data.judge}) started on {start.data.counts.total} task(s).
        </Success>
      ) : null}
      {preview.data?.prompts[0] ? (
        <div className="mt-3">
          <h3 className="text-sm font-medium">
            Prompt for {preview.data.prompts[0].qid} / {preview.data.prompts[0].docid}
          </h3>
          <pre
            role="region"
            aria-label="Prompt preview"
            tabIndex={0}
            className="mt-1 max-h-72 overflow-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap focus:outline-2 focus:outline-indigo-500"
            data-testid="judge-preview"
          >
            {preview.data.prompts[0].prompt}
          </pre>
        </div>
      ) : null}
      {trial.data ? (
        <ScrollRegion label="Trial answers">
          <table className="mt-3 w-full text-sm" aria-label="Trial answers">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="pr-3">Question</th>
                <th className="pr-3">Chunk</th>
                <th className="pr-3">Judge</th>
                <th className="pr-3">Human</th>
                <th>Answer</th>
              </tr>
            </thead>
            <tbody>
              {trial.data.rows.map((r) => (
                <tr
                  key={`${r.qid}/${r.docid}`}
                  className="border-t border-slate-100 align-top"
                  data-trial-pair={`${r.qid}/${r.docid}`}
                >
                  <td className="max-w-xs py-1 pr-3">
                    <div>{r.question}</div>
                    <div className="text-xs text-slate-600">{r.qid}</div>
                  </td>
                  <td className="max-w-md py-1 pr-3">
                    <div className="line-clamp-4 text-xs">{r.chunk}</div>
                    <div className="text-xs text-slate-600">{r.docid}</div>
                  </td>
                  <td className="py-1 pr-3 font-semibold" data-trial-grade>
                    {r.grade ?? <span className="text-red-700">{r.error}</span>}
                  </td>
                  <td className="py-1 pr-3">{r.human ?? "–"}</td>
                  <td className="py-1">
                    <details>
                      <summary className="cursor-pointer text-xs text-slate-600">
                        {(r.raw ?? "").slice(0, 80) || "(no answer)"}
                      </summary>
                      <pre className="text-xs whitespace-pre-wrap">{r.raw}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {runs.data ? <ProbeForm projectId={projectId} runs={runs.data.runs} /> : null}
      <h3 className="mt-5 text-sm font-medium">Runs</h3>
      {runs.data && runs.data.runs.length === 0 ? <p className="text-sm text-slate-500">No judge run yet.</p> : null}
      {runs.data && runs.data.runs.length > 0 ? (
        <ScrollRegion label="Judge runs">
          <table className="mt-1 w-full text-sm" aria-label="Judge runs">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="pr-3">Judge</th>
                <th className="pr-3">Model and prompt</th>
                <th className="pr-3">Progress</th>
                <th className="pr-3">Status</th>
                <th className="pr-3 text-right">Cost</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((r) => (
                <RunRow key={r.id} run={r} projectId={projectId} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </Section>
  );
}
