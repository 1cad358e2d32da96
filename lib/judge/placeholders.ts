/**
 * The `{{placeholder}}`s of a prompt template (chunk templates, template.ts, and answer templates,
 * answers-template.ts), found by a hand scanner in linear time. A regular expression such as
 * `/\{\{\s*([^{}]*?)\s*\}\}/g` backtracks cubically on `{{` followed by a long run of spaces and
 * no `}}` (3,000 spaces took 14 s, blocking the server); the scanner reads each character a
 * bounded number of times, so 1 MB of spaces parses in milliseconds.
 *
 * The rule is the regular expression's: `{{`, then any text without `{` or `}`, then `}}`; the
 * name is that text with surrounding white space removed. `{{{x}}}` holds `{{x}}` (from the
 * second brace), as before.
 */

export type TPlaceholderToken = {
  /** The name between the braces, trimmed (may be empty or unknown: the caller decides). */
  name: string;
  /** Offsets in the template of `{{` and just past `}}`. */
  start: number;
  end: number;
  /** 1-based line of the `{{`. */
  line: number;
};

/** Every `{{name}}` of a template, in order. */
export function scanPlaceholders(text: string): TPlaceholderToken[] {
  const tokens: TPlaceholderToken[] = [];
  let line = 1;
  let counted = 0; // line counts newlines before this offset
  const lineAt = (offset: number) => {
    for (; counted < offset; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  let i = text.indexOf("{{");
  while (i !== -1) {
    // The text after `{{` up to the first brace: a placeholder when that brace opens `}}`.
    let j = i + 2;
    while (j < text.length && text[j] !== "{" && text[j] !== "}") j++;
    if (j + 1 < text.length && text[j] === "}" && text[j + 1] === "}") {
      tokens.push({ name: text.slice(i + 2, j).trim(), start: i, end: j + 2, line: lineAt(i) });
      i = text.indexOf("{{", j + 2);
    } else {
      // No placeholder opens at i; the next `{{` cannot start before j - 1 (i + 2 … j - 1 hold no brace).
      i = j >= text.length ? -1 : text.indexOf("{{", Math.max(i + 1, j - 1));
    }
  }
  return tokens;
}

/** The template with each placeholder replaced by `replace(name)` (undefined keeps it as written). */
export function replacePlaceholders(text: string, replace: (name: string) => string | undefined): string {
  let out = "";
  let from = 0;
  for (const t of scanPlaceholders(text)) {
    const value = replace(t.name);
    if (value === undefined) continue;
    out += text.slice(from, t.start) + value;
    from = t.end;
  }
  return out + text.slice(from);
}

/** The largest template the preview takes (characters); a run or a try takes TEMPLATE_MAX_CHARS. */
export const PREVIEW_TEMPLATE_MAX_CHARS = 100_000;
/** The largest template of a run or a try: 1 MB (characters; the JSON body limit is 1 MB by default too). */
export const TEMPLATE_MAX_CHARS = 1_000_000;

/** The message of a template over its limit (the routes answer it with 422, the CLI with its file). */
export const templateTooLong = (limit: number, use: string) =>
  `the template is too long: ${use} takes at most ${limit.toLocaleString("en")} characters (${limit >= 1_000_000 ? `${limit / 1_000_000} MB` : `${limit / 1000} KB`})`;
