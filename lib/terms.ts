/**
 * The words a message uses for what the user fills in or does, one entry per field or action: the
 * domain names a field by its name (`perItem`), and each surface says it in its own terms, the
 * command line as its option (`--per-item`), the page as the form's field ("the “Annotators per
 * item” field"). A field with no `label` is not on any page; the page then shows its option, which
 * the lead can use from the command line.
 */
export const FIELDS = {
  annotators: { flag: "--annotators", label: "the “Annotators (emails)” field" },
  apiKeyEnv: { flag: "--api-key-env", label: "the “API key variable” field" },
  baseUrl: { flag: "--base-url", label: "the “Base URL” field" },
  budget: { flag: "--budget" },
  checks: { flag: "--checks" },
  chunking: { flag: "--chunking", label: "the “Chunking” field" },
  compare: { flag: "--compare" },
  concurrency: { flag: "--concurrency", label: "the “Concurrency” field" },
  depth: { flag: "--depth", label: "the “Depth” field" },
  includeLabelled: { flag: "--include-labelled" },
  judge: { flag: "--judge", label: "the “Judge name” field" },
  limit: { flag: "--limit", label: "the “Limit (pairs)” field" },
  maxCost: { flag: "--max-cost", label: "the “Max cost” field" },
  measure: { flag: "--measure" },
  model: { flag: "--model", label: "the “Model” field" },
  noApiKey: { flag: "--no-api-key", label: "the “no key” choice" },
  only: { flag: "--only", label: "the “Pairs” field" },
  overlaps: { flag: "--overlaps" },
  perItem: { flag: "--per-item", label: "the “Annotators per item” field" },
  priceIn: { flag: "--price-in", label: "the “Price in” field" },
  priceOut: { flag: "--price-out", label: "the “Price out” field" },
  sample: { flag: "--sample", label: "the “Sample size” field" },
  sampleQueries: { flag: "--sample-queries" },
  samples: { flag: "--samples", label: "the “Samples” field" },
  sizes: { flag: "--sizes" },
  spending: { flag: "--spending" },
  subset: { flag: "--subset", label: "the “Answers” field" },
  system: { flag: "--system" },
  tags: { flag: "--tags" },
  temperature: { flag: "--temperature", label: "the “Temperature” field" },
  unstableFirst: { flag: "--unstable-first" },
  holdShare: { flag: "--hold-share" },
  partSeconds: { flag: "--part-seconds" },
  nearSeconds: { flag: "--near-seconds" },
  zeroShare: { flag: "--zero-share" },
  openSeconds: { flag: "--open-seconds" },
  videos: { flag: "--videos" },
  seed: { flag: "--seed", label: "the “Seed” field" },
  kinds: { flag: "--kinds", label: "the “Perturbations” choice" },
  template: { flag: "--template", label: "the “Paraphrase” field" },
  replace: { flag: "--replace" },
  replaceAnswers: { flag: "--replace", label: "the “Replace changed answers” choice" },
  force: { flag: "--force", label: "the “Also replace answers that have human labels” choice" },
  project: { flag: "--project" },
  video: { flag: "--video", label: "the “Video id” field" },
  map: { flag: "--map" },
  method: { flag: "--method" },
  folds: { flag: "--folds" },
  apply: { flag: "--apply" },
} as const satisfies Record<string, { flag: string; label?: string }>;
export type Field = keyof typeof FIELDS;

/** What a message tells the user to do, as a command on the command line and as a control on the page. */
export const ACTIONS = {
  buildPool: { cli: "npx assessor pool", page: "Pool on this page" },
  buildPoolDeep: { cli: "npx assessor pool --depth K", page: "Pool on the project page" },
  importRun: { cli: "npx assessor import run --system NAME FILE", page: "Import on the project page (a run)" },
  importAnswers: {
    cli: "npx assessor import answers --system NAME answers.jsonl",
    page: "Import on the project page (answers)",
  },
  addAnnotators: { cli: "npx assessor user add --role annotator …", page: "the Users page" },
  cancelJudge: { cli: "Ctrl+C or judge cancel", page: "Cancel on the page" },
  /** How a judge run is stopped by hand: the command line's keys; the page shows its own control. */
  stopJudgeHint: { cli: " (Ctrl+C or stop)", page: "" },
  startJudge: {
    cli: "start one with: npx assessor judge run --judge NAME --model MODEL --base-url URL",
    page: "start one with the form above",
  },
} as const satisfies Record<string, { cli: string; page: string }>;
export type Action = keyof typeof ACTIONS;

/** Who reads the message: the command line (bin/) or the page and its API (lib/http/route.ts). */
export type Surface = "cli" | "page";

/** A field named in a message; `meta` is the option's value placeholder on the command line (`NAME`). */
export type Term = { field: Field; meta?: string } | { action: Action };
/** A message as facts: text with the fields and actions it names, said by each surface in its words. */
export type Said = readonly (string | Term)[];

export const field = (name: Field, meta?: string): Term => ({ field: name, ...(meta ? { meta } : {}) });
export const action = (name: Action): Term => ({ action: name });

function isTerm(v: unknown): v is Term {
  return typeof v === "object" && v !== null && ("field" in v || "action" in v);
}

/** say`${field("depth")}: expected a whole number ≥ 1, got ${depth}`: a message naming a field. */
export function say(strings: TemplateStringsArray, ...values: unknown[]): Said {
  const parts: (string | Term)[] = [strings[0]];
  values.forEach((v, i) => parts.push(isTerm(v) ? v : String(v), strings[i + 1]));
  return parts.filter((p) => p !== "");
}

/** The message in the words of one surface. */
export function inWords(said: Said, surface: Surface): string {
  return said
    .map((p) => {
      if (typeof p === "string") return p;
      if ("action" in p) return ACTIONS[p.action][surface];
      const f: { flag: string; label?: string } = FIELDS[p.field];
      const flag = p.meta ? `${f.flag} ${p.meta}` : f.flag;
      return surface === "page" ? (f.label ?? flag) : flag;
    })
    .join("");
}

/** Several messages as one, `separator` between them; the same message twice is said once. */
export function joined(list: readonly Said[], separator: string): Said {
  const seen = new Set<string>();
  const out: (string | Term)[] = [];
  for (const said of list) {
    const key = inWords(said, "cli");
    if (seen.has(key)) continue;
    if (seen.size) out.push(separator);
    seen.add(key);
    out.push(...said);
  }
  return out;
}

/** The first field a message names: the one at fault. */
export function fieldOf(said: Said): Field | undefined {
  for (const p of said) if (typeof p !== "string" && "field" in p) return p.field;
  return undefined;
}
