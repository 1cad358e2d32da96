import { describe, expect, it } from "vitest";
import { dashboardProject } from "../../../lib/dashboard/picker.ts";

describe("the dashboard's project (/dashboard?project=999)", () => {
  const projects = [{ id: 1 }, { id: 4 }];
  it("a project the URL names that is not in the list is missing (the page says so; the picker shows no other project)", () => {
    expect(dashboardProject("999", projects)).toEqual({ projectId: 999, fromUrl: true, missing: true });
  });
  it("so is one whose panels answer 404 before the list arrives (deleted meanwhile)", () => {
    expect(dashboardProject("4", undefined, 404)).toMatchObject({ missing: true });
    expect(dashboardProject("4", undefined)).toMatchObject({ projectId: 4, missing: false });
  });
  it("a project of the list, or none named (the first), is shown", () => {
    expect(dashboardProject("4", projects)).toEqual({ projectId: 4, fromUrl: true, missing: false });
    expect(dashboardProject(null, projects)).toEqual({ projectId: 1, fromUrl: false, missing: false });
    expect(dashboardProject("abc", [])).toEqual({ projectId: null, fromUrl: false, missing: false });
  });
});
