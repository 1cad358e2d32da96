import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No tracker numbers in anything a user reads (CLI help showed ""):
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

function parse(path: string, text: string, parents = false): ts.SourceFile {
  return ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    parents,
    path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

function shownTexts(path: string): string[] {
  const file = parse(path, readFileSync(path, "utf8"));
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

/** Every comment of the file (each found once, by its start), with its line. */
function trackerComments(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const file = parse(path, text, true);
  const comments = new Map<number, string>();
  const note = (ranges: ts.CommentRange[] | undefined) =>
    ranges?.forEach((r) => comments.set(r.pos, text.slice(r.pos, r.end)));
  const visit = (node: ts.Node) => {
    note(ts.getLeadingCommentRanges(text, node.pos));
    note(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(file).forEach(visit);
  };
  visit(file);
  return [...comments].flatMap(([pos, comment]) =>
    TRACKER.test(comment)
      ? [`${relative(root, path)}:${file.getLineAndCharacterOfPosition(pos).line + 1}: ${comment.slice(0, 120)}`]
      : [],
  );
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

describe("comments name the rule, not a tracker issue", () => {
  it("bin/, lib/, app/, components/, scripts/, tests/: every comment", () => {
    const files = ["bin", "lib", "app", "components", "scripts", "tests"].flatMap(sources);
    expect(files.length).toBeGreaterThan(400);
    expect(files.flatMap(trackerComments)).toEqual([]);
  });

  it("docs/ARCHITECTURE.md", () => {
    const lines = readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8").split("\n");
    expect(lines.flatMap((l, i) => (TRACKER.test(l) ? [`ARCHITECTURE.md:${i + 1}: ${l.slice(0, 120)}`] : []))).toEqual(
      [],
    );
  });
});
