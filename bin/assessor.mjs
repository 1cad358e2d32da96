#!/usr/bin/env node
// `npx assessor`: registers tsx so the TypeScript CLI runs without a build step, then hands over.
// The file-only commands (bin/fast.ts) run from a bundle cached in node_modules/.cache/assessor,
// rebuilt with esbuild whenever one of its source files changes; without it (no esbuild, a
// read-only tree, ASSESSOR_BUNDLE=0) they run through tsx like the others.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.ASSESSOR_ROOT ??= root;
const FAST_COMMANDS = ["eval", "fuse", "agreement"];

async function fastBundle() {
  const dir = join(root, "node_modules", ".cache", "assessor");
  const out = join(dir, "fast.mjs");
  const inputsFile = join(dir, "fast.inputs.json");
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    if (inputs.every(([file, mtime]) => statSync(join(root, file)).mtimeMs === mtime)) return out;
  } catch {
    // no bundle yet, or a source file is gone: build
  }
  try {
    const esbuild = await import("esbuild");
    const r = await esbuild.build({ entryPoints: [join(root, "bin", "fast.ts")], absWorkingDir: root, bundle: true, platform: "node", format: "esm", packages: "external", metafile: true, write: false, logLevel: "silent" });
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}`;
    writeFileSync(tmp, r.outputFiles[0].contents);
    renameSync(tmp, out);
    const inputs = Object.keys(r.metafile.inputs).map((file) => [file, statSync(join(root, file)).mtimeMs]);
    writeFileSync(`${inputsFile}.${process.pid}`, JSON.stringify(inputs));
    renameSync(`${inputsFile}.${process.pid}`, inputsFile);
    return out;
  } catch {
    return null;
  }
}

const bundle = FAST_COMMANDS.includes(process.argv[2]) && process.env.ASSESSOR_BUNDLE !== "0" ? await fastBundle() : null;
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "bin", "main.ts")).href);
}
