#!/usr/bin/env node
// `npx assessor`: registers tsx so the TypeScript CLI runs without a build step, then hands over.
import { register } from "tsx/esm/api";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

process.env.ASSESSOR_ROOT ??= join(dirname(fileURLToPath(import.meta.url)), "..");
register();
await import(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "main.ts")).href);
