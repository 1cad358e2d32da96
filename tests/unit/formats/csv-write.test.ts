import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { neutraliseCell, safeCsv } from "../../../lib/formats/csv-write.ts";

// OWASP "CSV Injection": cells beginning with = + - @ TAB CR are neutralised with a leading ' (and quoted).
describe("safeCsv", () => {
  it("neutralises text cells a spreadsheet would run as a formula, and only those", () => {
    const cells = [
      '=HYPERLINK("http://evil","x")',
      "+1+1",
      "-2+3",
      "@SUM(A1)",
      "\tcmd",
      "\rcmd",
      "ok",
      " =padded",
      "a=b",
      "",
    ];
    expect(cells.map(neutraliseCell)).toEqual([
      '\'=HYPERLINK("http://evil","x")',
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tcmd",
      "'\rcmd",
      "ok",
      " =padded",
      "a=b",
      "",
    ]);
  });

  it("keeps numbers as numbers (also negative ones), neutralises text that looks like one and non-finite numbers", () => {
    expect(neutraliseCell(-0.25)).toBe(-0.25);
    expect(neutraliseCell(3)).toBe(3);
    expect(neutraliseCell("-1")).toBe("'-1");
    expect(neutraliseCell(-Infinity)).toBe("'-Infinity");
    expect(neutraliseCell(null)).toBeNull();
    expect(safeCsv([["a", -0.25, null, "=1+1", "-x"]])).toBe(`a,-0.25,,"'=1+1","'-x"\n`);
  });

  it("reads back, with csv-parse, as the text with a leading ' and the rest unchanged", () => {
    const rows = [["=cmd|' /C calc'!A0", "x,y", 'say "hi"', "@a\nb"]];
    expect(parse(safeCsv(rows))).toEqual([["'=cmd|' /C calc'!A0", "x,y", 'say "hi"', "'@a\nb"]]);
  });

  it("keeps the caller's extra quoting rules", () => {
    expect(safeCsv([["#tag", "=x"]], { quoted_match: [/#/] })).toBe(`"#tag","'=x"\n`);
  });
});
