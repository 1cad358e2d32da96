import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ask, EndpointError, makeClient, preflight, publicBaseUrl, type TEndpoint } from "../judge/endpoint.ts";
import { finalAnswer } from "../judge/parse.ts";
import { MAX_CLAIMS, splitClaims } from "./claims.ts";
import { PRIVATE_VERSION_MIN } from "./claims-edit.ts";
import { field, say } from "../terms.ts";

/**
 * Re-splitting a system's answers into claims: by the model behind the judge's
 * OpenAI-compatible endpoint with a claim-decomposition prompt in the manner of RAGAS (its
 * faithfulness metric first breaks the answer into standalone statements), or back to the default
 * sentence split. Each changed answer gets a new claim version (source "llm" or "sentence"; an
 * LLM claim has offsets only when it is a verbatim piece of the answer), `Answer.claimVersion`
 * moves to it, and an AnswerEvent "resplit" records the claims before and after with the method's
 * provenance. Answers with human labels are left alone unless `force` (their labels keep naming
 * the version they were given on). An answer whose claims come out the same is unchanged.
 */
export const CLAIMS_PROMPT = `Given a question and an answer to it, break the answer down into standalone statements (claims) that can each be checked against a source on their own.

Rules:
- One fact per statement. Split a sentence that says several things.
- Each statement must be understandable without the others: replace pronouns and references ("it", "this", "the former") with what they refer to.
- Keep the answer's meaning and wording as far as possible; add nothing the answer does not say.
- Leave out text that states no fact (greetings, "I hope this helps", a restatement of the question).

Reply with a JSON object and nothing else: {"statements": ["first statement", "second statement"]}

<question>
{{question}}
</question>

<answer>
{{answer}}
</answer>`;

const TAG_RE = /<(\/?)\s*(question|answer)\b([^<>]*)>/gi;
const neutralise = (v: string) =>
  v.replace(TAG_RE, (_m, slash: string, name: string, rest: string) => `‹${slash}${name}${rest}›`);

export function claimsPrompt(question: string, answer: string): string {
  return CLAIMS_PROMPT.replace(/\{\{(question|answer)\}\}/g, (_m, name: string) =>
    neutralise(name === "question" ? question : answer),
  );
}

/**
 * The statements of a model's reply: the final answer (reasoning blocks removed), then a JSON
 * object with a `statements` (or `claims`) list of strings, or a JSON list of strings, or else one
 * statement a line with bullets and numbers removed. Null when nothing is left.
 */
export function parseStatements(reply: string): string[] | null {
  const text = finalAnswer(reply)
    .replace(/^```[a-z]*\s*\n?|\n?```\s*$/gi, "")
    .trim();
  const fromJson = (v: unknown): string[] | null => {
    const list = Array.isArray(v)
      ? v
      : typeof v === "object" && v !== null
        ? ((v as Record<string, unknown>).statements ?? (v as Record<string, unknown>).claims)
        : null;
    if (!Array.isArray(list) || !list.every((s) => typeof s === "string")) return null;
    return (list as string[]).map((s) => s.trim()).filter((s) => s !== "");
  };
  for (const candidate of [text, /\{[\s\S]*\}/.exec(text)?.[0], /\[[\s\S]*\]/.exec(text)?.[0]]) {
    if (!candidate) continue;
    try {
      const got = fromJson(JSON.parse(candidate));
      if (got) return got.length ? got : null;
    } catch {
      // not JSON: the next candidate, then lines
    }
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d{1,3}[.)])\s+/, "").trim())
    .filter((l) => l !== "" && !/^(statements|claims)\s*:?$/i.test(l));
  return lines.length ? lines : null;
}

type Claim = { text: string; startChar: number | null; endChar: number | null; source: string };

/** LLM statements as claims: offsets where a statement is a verbatim piece of the answer (searched after the previous one first). */
export function placeStatements(answer: string, statements: readonly string[]): Claim[] {
  let from = 0;
  return statements.map((text) => {
    let at = answer.indexOf(text, from);
    if (at < 0) at = answer.indexOf(text);
    if (at < 0) return { text, startChar: null, endChar: null, source: "llm" };
    from = at + text.length;
    return { text, startChar: at, endChar: at + text.length, source: "llm" };
  });
}

export type TResplitEndpoint = {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  maxRetries?: number;
  concurrency?: number;
};
export type TResplitOptions = {
  system: string;
  method: "llm" | "sentences";
  /** Needed for `llm`. */
  endpoint?: TResplitEndpoint;
  force?: boolean;
  actorId?: string | null;
  onProgress?: (done: number, total: number) => void;
};
export type TResplitResult = {
  system: string;
  method: "llm" | "sentences";
  answers: number;
  resplit: number;
  unchanged: number;
  /** Answers with human labels, left alone (without `force`). */
  labelled: number;
  claims: number;
  failed: { qid: string; message: string }[];
};

const same = (a: readonly Claim[], b: readonly Claim[]) =>
  a.length === b.length && a.every((c, i) => c.text === b[i].text && c.source === b[i].source);

export async function resplitAnswers(db: Db, projectId: number, opts: TResplitOptions): Promise<TResplitResult> {
  const system = opts.system.trim();
  const answers = await db.answer.findMany({
    where: { projectId, system },
    orderBy: { query: { externalId: "asc" } },
    select: {
      id: true,
      text: true,
      claimVersion: true,
      query: { select: { externalId: true, text: true } },
      _count: { select: { judgements: true } },
      adjudication: { select: { id: true } },
    },
  });
  if (answers.length === 0) {
    const systems = (
      await db.answer.findMany({
        where: { projectId },
        distinct: ["system"],
        select: { system: true },
        orderBy: { system: "asc" },
      })
    ).map((a) => a.system);
    throw new AppError(
      "not_found",
      `system "${system}" has no answers in this project${systems.length ? `; systems with answers: ${systems.join(", ")}` : " (import them with `assessor import answers`)"}`,
    );
  }
  const labelled = answers.filter((a) => a._count.judgements > 0 || a.adjudication !== null);
  const todo = opts.force ? answers : answers.filter((a) => a._count.judgements === 0 && a.adjudication === null);
  const result: TResplitResult = {
    system,
    method: opts.method,
    answers: answers.length,
    resplit: 0,
    unchanged: 0,
    labelled: opts.force ? 0 : labelled.length,
    claims: 0,
    failed: [],
  };

  let decompose: (question: string, answer: string) => Promise<Claim[]>;
  let provenance: Record<string, unknown>;
  if (opts.method === "sentences") {
    decompose = async (_q, answer) => splitClaims(answer).map((c) => ({ ...c, source: "sentence" }));
    provenance = { method: "sentences" };
  } else {
    const e = opts.endpoint;
    if (!e)
      throw new AppError(
        "bad_input",
        say`an LLM re-split needs the endpoint: ${field("baseUrl")} and ${field("model")} (and the key's variable)`,
      );
    const shown = publicBaseUrl(e.baseUrl); // also checks that it is an http(s) URL
    const endpoint: TEndpoint = {
      baseUrl: e.baseUrl,
      apiKey: e.apiKey,
      timeoutMs: e.timeoutMs ?? 60_000,
      maxRetries: e.maxRetries ?? 4,
      concurrency: e.concurrency ?? 4,
    };
    const client = makeClient(endpoint);
    await preflight(client, endpoint, e.model);
    provenance = {
      method: "llm",
      model: e.model,
      baseUrl: shown,
      temperature: e.temperature ?? 0,
      promptSha256: createHash("sha256").update(CLAIMS_PROMPT).digest("hex"),
    };
    decompose = async (question, answer) => {
      const reply = await ask(client, endpoint, {
        model: e.model,
        prompt: claimsPrompt(question, answer),
        temperature: e.temperature ?? 0,
        maxTokens: e.maxTokens ?? 1024,
        structured: false,
      });
      if (reply.finishReason === "length")
        throw new Error(`the reply was cut at the token limit (${e.maxTokens ?? 1024}); raise --max-tokens`);
      const statements = parseStatements(reply.content || reply.raw);
      if (!statements)
        throw new Error(
          reply.refusal
            ? `the model refused: ${reply.refusal}`
            : `no statements in the reply: ${JSON.stringify(reply.raw.slice(0, 200))}`,
        );
      return placeStatements(answer, statements);
    };
  }

  let done = 0;
  let fatal: string | null = null;
  const work = async (a: (typeof todo)[number]) => {
    let next: Claim[];
    try {
      next = await decompose(a.query.text, a.text);
      if (next.length > MAX_CLAIMS)
        throw new Error(`${next.length} claims; expected at most ${MAX_CLAIMS}, the most a label can carry`);
    } catch (err) {
      if (err instanceof EndpointError && err.failure.kind === "fatal") fatal = err.message;
      result.failed.push({ qid: a.query.externalId, message: err instanceof Error ? err.message : String(err) });
      return;
    }
    try {
      await write(a, next);
    } catch (err) {
      result.failed.push({ qid: a.query.externalId, message: err instanceof Error ? err.message : String(err) });
    }
  };
  const write = (a: (typeof todo)[number], next: Claim[]) =>
    db.$transaction(async (tx) => {
      const current = await tx.answerClaim.findMany({
        where: { answerId: a.id, version: a.claimVersion },
        orderBy: { position: "asc" },
        select: { text: true, startChar: true, endChar: true, source: true },
      });
      if (same(current, next)) {
        result.unchanged++;
        return;
      }
      // The next shared version: annotators' private sets (random, from PRIVATE_VERSION_MIN) do not count.
      const last = await tx.answerClaim.aggregate({
        where: { answerId: a.id, version: { lt: PRIVATE_VERSION_MIN } },
        _max: { version: true },
      });
      const version = Math.max(a.claimVersion, last._max.version ?? 0) + 1;
      const bumped = await tx.answer.updateMany({
        where: { id: a.id, claimVersion: a.claimVersion },
        data: { claimVersion: version },
      });
      if (bumped.count !== 1)
        throw new AppError(
          "conflict",
          `the claims of the answer to "${a.query.externalId}" changed while it was re-split; run again`,
        );
      await tx.answerClaim.createMany({
        data: next.map((c, position) => ({ answerId: a.id, version, position, ...c })),
      });
      await tx.answerEvent.create({
        data: {
          projectId,
          answerId: a.id,
          actorId: opts.actorId ?? null,
          kind: "resplit",
          before: JSON.stringify({ claimVersion: a.claimVersion, claims: current.map((c) => c.text) }),
          after: JSON.stringify({ claimVersion: version, ...provenance, claims: next.map((c) => c.text) }),
        },
      });
      result.resplit++;
      result.claims += next.length;
    });
  // A few answers in flight at once (the endpoint's concurrency); a fatal endpoint error stops the rest.
  const queue = [...todo];
  const workers = Array.from(
    { length: Math.max(1, Math.min(opts.method === "llm" ? (opts.endpoint?.concurrency ?? 4) : 1, queue.length)) },
    async () => {
      for (let a = queue.shift(); a && !fatal; a = queue.shift()) {
        await work(a);
        opts.onProgress?.(++done, todo.length);
      }
    },
  );
  await Promise.all(workers);
  if (fatal)
    throw new AppError(
      "bad_input",
      `the endpoint stopped the re-split: ${fatal} (${result.resplit} answer(s) re-split before it)`,
      result,
    );
  result.failed.sort((x, y) => (x.qid < y.qid ? -1 : x.qid > y.qid ? 1 : 0));
  return result;
}
