/**
 * GitHub-style pipe tables for react-markdown without remark-gfm (not a dependency: with it,
 * `remarkPlugins={[remarkGfm]}` would replace this). A remark plugin: every paragraph whose source
 * lines are a header row, a delimiter row (`| --- | :-: |`) and body rows becomes an mdast `table`
 * (mdast-util-to-hast, inside react-markdown, renders it as <table> with <thead> and <tbody>).
 * Cells are plain text (inline Markdown inside a cell is shown as typed); a `\|` is a literal pipe.
 */

type TPoint = { offset?: number };
type TNode = {
  type: string;
  value?: string;
  children?: TNode[];
  position?: { start: TPoint; end: TPoint };
  align?: (TAlign | null)[];
};
type TAlign = "left" | "right" | "center";

const DELIMITER_CELL = /^\s*:?-+:?\s*$/;

/** The cells of one table row: outer pipes optional, `\|` kept as a pipe. */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && s[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (s[i] === "|") {
      cells.push(cur.trim());
      cur = "";
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
}

function alignOf(cell: string): TAlign | null {
  const c = cell.trim();
  const left = c.startsWith(":");
  const right = c.endsWith(":");
  return left && right ? "center" : right ? "right" : left ? "left" : null;
}

/** The table a paragraph's source lines spell, or null when they are not a pipe table. */
export function parsePipeTable(source: string): { align: (TAlign | null)[]; rows: string[][] } | null {
  const lines = source.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length < 2 || !lines[0].includes("|") || !lines[1].includes("-")) return null;
  const delimiter = splitRow(lines[1]);
  if (!delimiter.every((c) => DELIMITER_CELL.test(c))) return null;
  const header = splitRow(lines[0]);
  if (header.length !== delimiter.length) return null;
  const width = header.length;
  const rows = [header, ...lines.slice(2).map((l) => splitRow(l))].map((r) =>
    Array.from({ length: width }, (_, i) => r[i] ?? ""),
  );
  return { align: delimiter.map(alignOf), rows };
}

function tableNode(t: { align: (TAlign | null)[]; rows: string[][] }): TNode {
  return {
    type: "table",
    align: t.align,
    children: t.rows.map((r) => ({
      type: "tableRow",
      children: r.map((text) => ({ type: "tableCell", children: text ? [{ type: "text", value: text }] : [] })),
    })),
  };
}

function walk(node: TNode, source: string): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type === "paragraph") {
      const start = child.position?.start.offset;
      const end = child.position?.end.offset;
      const table = start !== undefined && end !== undefined ? parsePipeTable(source.slice(start, end)) : null;
      if (table) return tableNode(table);
    }
    walk(child, source);
    return child;
  });
}

/** The remark plugin (react-markdown `remarkPlugins={[remarkPipeTables]}`). */
export function remarkPipeTables() {
  return (tree: TNode, file: { value?: unknown }) => {
    walk(tree, typeof file.value === "string" ? file.value : String(file.value ?? ""));
  };
}
