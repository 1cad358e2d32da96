import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import Markdown from "react-markdown";
import { describe, expect, it } from "vitest";
import { parsePipeTable, remarkPipeTables, splitRow } from "../../lib/markdown/pipe-tables.ts";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, { remarkPlugins: [remarkPipeTables] }, md));

describe("pipe tables in the guidelines (GFM without remark-gfm)", () => {
  it("splits rows with and without outer pipes, keeping an escaped pipe", () => {
    expect(splitRow("| a | b |")).toEqual(["a", "b"]);
    expect(splitRow("a | b")).toEqual(["a", "b"]);
    expect(splitRow("| x \\| y | z |")).toEqual(["x | y", "z"]);
  });

  it("reads the alignment from the delimiter row and pads short rows", () => {
    expect(parsePipeTable("| G | Means | Note |\n|:--|:-:|--:|\n| 3 | exact |\n")).toEqual({
      align: ["left", "center", "right"],
      rows: [
        ["G", "Means", "Note"],
        ["3", "exact", ""],
      ],
    });
    expect(parsePipeTable("just a | pipe in a sentence\nand another line")).toBeNull();
    expect(parsePipeTable("| a | b |\n| --- |")).toBeNull();
  });

  it("renders a table with a header and body, and leaves other Markdown as it was", () => {
    const html = render(
      "## Grades\n\n| Grade | Meaning |\n| --- | --- |\n| 3 | names the answer |\n| 0 | off topic |\n\nA *paragraph* after.",
    );
    expect(html).toBe(
      "<h2>Grades</h2>\n<table><thead><tr><th>Grade</th><th>Meaning</th></tr></thead><tbody><tr><td>3</td><td>names the answer</td></tr><tr><td>0</td><td>off topic</td></tr></tbody></table>\n<p>A <em>paragraph</em> after.</p>",
    );
  });
});
