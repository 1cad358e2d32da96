#!/usr/bin/env node
// `npx assessor`: runs the TypeScript CLI from an esbuild bundle cached in
// node_modules/.cache/assessor, rebuilt whenever one of its source files changes: the file-only
// commands (bin/fast.ts) from one bundle, every other command (bin/main.ts) from another, split at
// its lazy imports so that a command loads only the modules it uses (issue 21 item 6: a database
// command starts in ≤ 0.5 s; through tsx it took 2–3 s). Without esbuild, in a read-only tree or
// with ASSESSOR_BUNDLE=0 the CLI runs through tsx as before.
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.ASSESSOR_ROOT ??= root;
const FAST_COMMANDS = ["eval", "fuse", "agreement"];

// Prisma's query compiler is a WebAssembly module compiled when the client starts; V8 also
// compiles it with its optimising tier in the background, which costs a CLI command ~1 s of CPU
// for queries that run once. The baseline compiler alone is enough here (not the app server).
v8.setFlagsFromString("--liftoff-only");

/** Old bundles are kept this long: a command still running may load their lazy chunks. */
const KEEP_OLD_MS = 60 * 60_000;

/** The cached bundle of bin/<name>.ts (its entry file), built when missing or stale; null if it cannot be. */
async function bundle(name) {
  const dir = join(root, "node_modules", ".cache", "assessor");
  const inputsFile = join(dir, `${name}.inputs.json`);
  try {
    const { out, inputs } = JSON.parse(readFileSync(inputsFile, "utf8"));
    if (inputs.every(([file, mtime]) => statSync(join(root, file)).mtimeMs === mtime)) return join(dir, out, `${name}.js`);
  } catch {
    // no bundle yet, or a source file is gone: build
  }
  try {
    const esbuild = await import("esbuild");
    const out = `${name}.${Date.now()}.${process.pid}`;
    const r = await esbuild.build({
      entryPoints: [join(root, "bin", `${name}.ts`)],
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      packages: "external",
      outdir: join(dir, out),
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(r.metafile.inputs).map((file) => [file, statSync(join(root, file)).mtimeMs]);
    writeFileSync(`${inputsFile}.${process.pid}`, JSON.stringify({ out, inputs }));
    renameSync(`${inputsFile}.${process.pid}`, inputsFile);
    for (const old of readdirSync(dir)) {
      const path = join(dir, old);
      if (old !== out && old.startsWith(`${name}.`) && !old.endsWith(".json") && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
    }
    return join(dir, out, `${name}.js`);
  } catch {
    return null;
  }
}

const entry = FAST_COMMANDS.includes(process.argv[2]) ? "fast" : "main";
const bundled = process.env.ASSESSOR_BUNDLE !== "0" ? await bundle(entry) : null;
if (bundled) await import(pathToFileURL(bundled).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "bin", `${entry}.ts`)).href);
}
