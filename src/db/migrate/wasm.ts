// Loads Prisma's schema engine, compiled to WebAssembly, once per process.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
// The package's main entry imports the .wasm file as an ES module, which Node 20
// cannot do; the `schema_engine_bg` glue is loaded instead and given a module
// instantiated by hand (see loadSchemaEngine).
import * as engineGlue from '@prisma/schema-engine-wasm/schema_engine_bg';

let wasmReady: Promise<typeof engineGlue> | undefined;

/** Compiles and instantiates the engine's WebAssembly module once per process. */
export function loadSchemaEngine(): Promise<typeof engineGlue> {
  wasmReady ??= (async () => {
    installPanicRegistry();
    // The package only exports its JS entry points; the .wasm sits next to them.
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    // The module's only import namespace is its wasm-bindgen glue file. The
    // engine arms timeouts (10 s) that it never clears, which would keep a CLI
    // alive after its work is done: they are unref'd, the pending database
    // I/O keeps the process running while the engine is actually busy.
    const imports: WebAssembly.ModuleImports = { ...engineGlue };
    for (const [name, fn] of Object.entries(engineGlue)) {
      if (name.startsWith('__wbg_setTimeout_') && typeof fn === 'function') {
        imports[name] = (...args: unknown[]) => {
          const timer = (fn as (...a: unknown[]) => unknown)(...args);
          (timer as Partial<NodeJS.Timeout>)?.unref?.();
          return timer;
        };
      }
    }
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
    engineGlue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return engineGlue;
  })().catch((err: unknown) => {
    wasmReady = undefined; // let a later call retry
    throw err;
  });
  return wasmReady;
}

/**
 * Prisma's wasm modules report a Rust panic through this global before
 * trapping; without it the report itself fails with an unrelated TypeError. The
 * Prisma client installs its own (which throws a descriptive error) and is
 * left alone. Panics inside the engine's async work surface as an uncaught
 * `RuntimeError: unreachable`, so the reason is printed the way a native panic
 * would be.
 */
function installPanicRegistry(): void {
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
  g.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message(message: string) {
      process.stderr.write(`schema engine panicked: ${message}\n`);
    },
  };
}
