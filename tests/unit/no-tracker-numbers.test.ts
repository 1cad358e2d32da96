import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No tracker numbers in anything a user reads (issue 29 item 12: CLI help showed "(issue 20)"):
 * every string literal, template text and JSX text of bin/, lib/, app/ and components/ (comments
 * may keep them: they are for the people changing the code), and README.md and docs/formats.md.
 */
const root = join(import.meta.dirname, "..", "..");
const TRACKER = /\bissues? #?\d+/i;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => !relative(root, path).startsWith(join("lib", "db", "generated")));
}

function shownTexts(path: string): string[] {
  const file = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    false,
    path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      if (TRACKER.test(node.text))
        found.push(
          `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.text.trim().slice(0, 120)}`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("user-facing text names no tracker issue", () => {
  it("bin/, lib/, app/, components/: strings and JSX text", () => {
    const files = ["bin", "lib", "app", "components"].flatMap(sources);
    expect(files.length).toBeGreaterThan(200);
    expect(files.flatMap(shownTexts)).toEqual([]);
  });

  it("README.md and docs/formats.md", () => {
    for (const doc of ["README.md", join("docs", "formats.md")]) {
      const lines = readFileSync(join(root, doc), "utf8").split("\n");
      expect(lines.flatMap((l, i) => (TRACKER.test(l) ? [`${doc}:${i + 1}: ${l.slice(0, 120)}`] : []))).toEqual([]);
    }
  });
});
