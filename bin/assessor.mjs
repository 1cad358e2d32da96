#!/usr/bin/env node
// `npx assessor`: runs the TypeScript CLI from an esbuild bundle cached in
// node_modules/.cache/assessor, rebuilt whenever one of its source files changes: the file-only
// commands (bin/fast.ts) from one bundle, every other command (bin/main.ts) from another, split at
// its lazy imports so that a command loads only the modules it uses (a database
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

/**
 * Packages bundled into the CLI instead of loaded from node_modules at run time: pure JavaScript
 * that every database command loads. Node 20 has no compile cache, and each of the ~150 files it
 * would otherwise resolve and compile (zod alone ~75 ms; Prisma's CommonJS runtime also went
 * through the CommonJS export scanner) costs start time. Everything else (native modules, pg,
 * Prisma's wasm runtime) stays external.
 */
const INLINE =
  /^(zod|commander|csv-[a-z]+|@prisma\/(client\/runtime\/client|client-runtime-utils|adapter-better-sqlite3|driver-adapter-utils|debug))(\/|$)/;

/**
 * Prisma's query compiler ships as a 4.4 MB JavaScript module holding the wasm as one base64
 * string; compiling that module cost ~35 ms a command. The bundle reads the string straight out of
 * the file instead (and imports the module as usual if its layout is not the expected one).
 */
const WASM_BASE64 = /^@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs$/;
const wasmShim = (specifier) => `import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const file = createRequire(import.meta.url).resolve(${JSON.stringify(specifier)});
const text = readFileSync(file, "latin1");
const start = text.indexOf('"') + 1;
const end = text.indexOf('"', start);
export const wasm = start > 0 && /^const wasm = "$/.test(text.slice(0, start)) && /^";\\s*export \\{ wasm \\};?\\s*$/.test(text.slice(end)) ? text.slice(start, end) : (await import(${JSON.stringify(specifier)})).wasm;
`;

const startPlugin = {
  name: "assessor-start",
  setup(build) {
    build.onResolve({ filter: WASM_BASE64 }, (a) =>
      a.namespace === "wasm-shim" ? { path: a.path, external: true } : { path: a.path, namespace: "wasm-shim" },
    );
    build.onLoad({ filter: /.*/, namespace: "wasm-shim" }, (a) => ({
      contents: wasmShim(a.path),
      loader: "js",
      resolveDir: root,
    }));
    build.onResolve({ filter: /^[^./]/ }, (a) =>
      a.path.startsWith("node:") || INLINE.test(a.path) ? undefined : { path: a.path, external: true },
    );
  },
};

/** Old bundles are kept this long: a command still running may load their lazy chunks. */
const KEEP_OLD_MS = 60 * 60_000;

/** The cached bundle of bin/<name>.ts (its entry file), built when missing or stale; null if it cannot be. */
async function bundle(name) {
  const dir = join(root, "node_modules", ".cache", "assessor");
  const inputsFile = join(dir, `${name}.inputs.json`);
  try {
    const { out, inputs } = JSON.parse(readFileSync(inputsFile, "utf8"));
    if (inputs.every(([file, mtime]) => statSync(join(root, file)).mtimeMs === mtime))
      return join(dir, out, `${name}.js`);
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
      plugins: [startPlugin],
      banner: {
        js: 'import { createRequire as __assessorRequire } from "node:module"; const require = __assessorRequire(import.meta.url);',
      },
      outdir: join(dir, out),
      metafile: true,
      logLevel: "silent",
    });
    // This file is an input too: how it bundles is part of the bundle.
    const inputs = ["bin/assessor.mjs", ...Object.keys(r.metafile.inputs).filter((file) => !file.includes(":"))].map(
      (file) => [file, statSync(join(root, file)).mtimeMs],
    );
    writeFileSync(`${inputsFile}.${process.pid}`, JSON.stringify({ out, inputs }));
    renameSync(`${inputsFile}.${process.pid}`, inputsFile);
    for (const old of readdirSync(dir)) {
      const path = join(dir, old);
      if (
        old !== out &&
        old.startsWith(`${name}.`) &&
        !old.endsWith(".json") &&
        Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS
      )
        rmSync(path, { recursive: true, force: true });
    }
    return join(dir, out, `${name}.js`);
  } catch (e) {
    if (process.env.ASSESSOR_BUNDLE_DEBUG) console.error(e);
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
