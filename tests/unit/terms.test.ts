import { describe, expect, it } from "vitest";
import { AppError, formatLocated, saidMessage, ValidationError } from "../../lib/errors.ts";
import { action, field, inWords, joined, say } from "../../lib/terms.ts";

describe("errors carry facts: the field at fault, said by each surface in its words", () => {
  it("names the field by its domain name, the option on the command line, the form's field on the page", () => {
    const e = new AppError("bad_input", say`${field("perItem")}: expected a whole number ≥ 1, got ${0}`);
    expect(e.field).toBe("perItem");
    expect(e.message).toBe("--per-item: expected a whole number ≥ 1, got 0");
    expect(e.sayTo("cli")).toBe(e.message);
    expect(e.sayTo("page")).toBe("the “Annotators per item” field: expected a whole number ≥ 1, got 0");
  });

  it("keeps the option where no page has the field, and its value placeholder on the command line only", () => {
    const said = say`${field("sampleQueries")} and ${field("judge", "NAME")}`;
    expect(inWords(said, "cli")).toBe("--sample-queries and --judge NAME");
    expect(inWords(said, "page")).toBe("--sample-queries and the “Judge name” field");
  });

  it("says an action as a command or as the page's control", () => {
    const said = say`build it first (${action("buildPool")})`;
    expect(inWords(said, "cli")).toBe("build it first (npx assessor pool)");
    expect(inWords(said, "page")).toBe("build it first (Pool on this page)");
  });

  it("a plain message has no field and reads the same everywhere", () => {
    const e = new AppError("not_found", "no such project");
    expect(e.field).toBeUndefined();
    expect(e.sayTo("page")).toBe("no such project");
  });

  it("joins messages once each", () => {
    const one = say`${field("sizes")}: expected seconds above 0, got -1`;
    const joinedSaid = joined([one, one, ["size 5 s: too short"]], "; ");
    expect(inWords(joinedSaid, "cli")).toBe("--sizes: expected seconds above 0, got -1; size 5 s: too short");
    expect(new AppError("bad_input", joinedSaid).field).toBe("sizes");
  });

  it("a file's problem names the option on the command line and the form's choice on the page, in the message and its details", () => {
    const located = {
      file: "answers.jsonl",
      line: 3,
      field: "answer",
      ...saidMessage(say`already has a different answer; use ${field("replaceAnswers")} to replace changed answers`),
    };
    const plain = { file: "answers.jsonl", line: 4, message: "expected JSON" };
    expect(formatLocated(located)).toBe(
      "answers.jsonl:3: answer: already has a different answer; use --replace to replace changed answers",
    );
    const one = new ValidationError([located]);
    expect(one.message).toBe(formatLocated(located));
    expect(one.sayTo("page")).toBe(
      "answers.jsonl:3: answer: already has a different answer; use the “Replace changed answers” choice to replace changed answers",
    );
    const two = new ValidationError([located, plain]);
    expect(two.message).toBe(`2 errors:\n${formatLocated(located)}\nanswers.jsonl:4: expected JSON`);
    const { said: _said, ...place } = located;
    expect(_said).toBeDefined();
    expect(two.detailsFor("page")).toEqual([
      {
        ...place,
        message: "already has a different answer; use the “Replace changed answers” choice to replace changed answers",
      },
      plain,
    ]);
    expect(two.detailsFor("cli")).toEqual([place, plain]);
  });
});
