"use client";

import { useRef, useState, type FormEvent } from "react";
import { useJudgeRuns, usePreviewPrompt, useStartJudgeRun, useTryJudge } from "@/lib/query/judge";
import { Button, ErrorBox, Field, InputField, Section, Success, inputClass } from "./ui";
import { ProbeForm } from "./ProbeForm";
import { settingsOf } from "./judgeSettings";
import { JudgeRunsTable } from "./JudgeRuns";
import { TrialAnswers } from "./JudgeTrial";

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
      {trial.data ? <TrialAnswers rows={trial.data.rows} /> : null}
      {runs.data ? <ProbeForm projectId={projectId} runs={runs.data.runs} /> : null}
      <h3 className="mt-5 text-sm font-medium">Runs</h3>
      {runs.data && runs.data.runs.length === 0 ? <p className="text-sm text-slate-500">No judge run yet.</p> : null}
      {runs.data && runs.data.runs.length > 0 ? <JudgeRunsTable runs={runs.data.runs} projectId={projectId} /> : null}
    </Section>
  );
}
