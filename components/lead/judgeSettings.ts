import type { TRunSettingsInput } from "@/lib/query/judge";

const num = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? undefined : Number(v));

/** The form's values as run settings (the server validates them again with the same schema). */
export function settingsOf(form: HTMLFormElement): TRunSettingsInput {
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
