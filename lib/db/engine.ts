import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as wasmBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

/**
 * Prisma's schema engine, as WebAssembly. The native engine cannot be downloaded on an offline
 * machine; the wasm build does the same work (diff, applyMigrations) through a driver adapter.
 * See ../shared/STACK.md, "Prisma 7 offline".
 */
let initialised: Promise<void> | undefined;

function initWasm(): Promise<void> {
  initialised ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = join(
      dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const bytes = await readFile(wasmPath);
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": wasmBindings as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start: () => void };
    wasmBindings.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return initialised;
}

export type OpenEngine = { engine: SchemaEngine; close: () => Promise<void> };

/**
 * Opens the engine over a driver adapter. `close()` frees the engine and disposes every
 * connection it opened: engine.free() alone leaves them open, and a second engine on the same
 * SQLite file then fails on the lock.
 */
export async function openSchemaEngine(
  schema: { path: string; content: string },
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<OpenEngine> {
  await initWasm();
  const opened: SqlDriverAdapter[] = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => {
      const adapter = await adapterFactory.connect();
      opened.push(adapter);
      return adapter;
    },
    connectToShadowDb: async () => {
      const adapter = await adapterFactory.connectToShadowDb();
      opened.push(adapter);
      return adapter;
    },
  };
  const log = () => undefined;
  const engine = await SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    log,
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  return {
    engine,
    close: async () => {
      engine.free();
      await Promise.all(opened.map((a) => a.dispose()));
    },
  };
}

export const noFilters = { externalTables: [] as string[], externalEnums: [] as string[] };
