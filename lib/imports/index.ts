/** The importers, shared by the CLI (`assessor import …`) and the lead's upload route. */
export { importVideos } from "./videos.ts";
export { importChunks } from "./chunks.ts";
export { importTranscript, importTranscripts } from "./transcript.ts";
export { importQueries } from "./queries.ts";
export { importRun } from "./run.ts";
export { importReferenceLabels, importJudgeLabels } from "./labels.ts";
export type { ImportInput, ImportOptions, ImportResult, ImportKind } from "./input.ts";
