import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A worker thread running a module of this package. Built (`dist`), the worker loads the compiled `.js` beside
 * this file. Run from the TypeScript sources (jest transforms them in its own module system, which a worker thread
 * does not share), the worker compiles what it loads with swc, there wherever the sources are run, and resolves
 * the workspace packages (`@frete/…`) to their sources as jest does.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const entry = workerData.entry;
if (entry.endsWith('.ts')) {
  const fs = require('node:fs');
  const path = require('node:path');
  const Module = require('node:module');
  const { transformSync } = require(require.resolve('@swc/core', { paths: [entry] }));
  require.extensions['.ts'] = (module, filename) => {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs', ignoreDynamic: true },
    });
    module._compile(code, filename);
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    if (!/^@frete\\/[^/]+$/.test(request)) return resolve.call(this, request, parent, ...rest);
    return path.join(path.dirname(resolve.call(this, request + '/package.json', parent, ...rest)), 'src', 'index.ts');
  };
}
require(entry);
`;

export interface ModuleWorkerOptions {
  /** Handed to the module as `workerData.data`. */
  data?: unknown;
  resourceLimits?: ResourceLimits;
}

/** Starts `module` (a path without extension, e.g. `path.join(__dirname, 'x-worker')`) in a worker thread. */
export function startModuleWorker(module: string, options: ModuleWorkerOptions = {}): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { entry: module + path.extname(__filename), data: options.data },
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    // The worker writes to this process's stdout and stderr: piped streams would keep an unref'd worker alive.
  });
}
