/**
 * Which project the dashboard shows (pure; the page's picker): the one the URL names
 * (`?project=ID`), else the first of the list. `missing`: the URL names a project that does not
 * exist — the loaded list lacks it, or its panels answered 404 (a project deleted meanwhile) — so
 * the page says so and shows no panels, and the picker does not pretend another one is shown.
 */
export function dashboardProject(
  param: string | null,
  projects: readonly { id: number }[] | undefined,
  panelStatus?: number,
): { projectId: number | null; fromUrl: boolean; missing: boolean } {
  const n = Number(param);
  const fromUrl = param !== null && Number.isInteger(n) && n > 0;
  const projectId = fromUrl ? n : (projects?.[0]?.id ?? null);
  const missing = fromUrl && (panelStatus === 404 || (projects !== undefined && !projects.some((p) => p.id === n)));
  return { projectId, fromUrl, missing };
}
