// Where the controllers thread's code is, in the layout the main thread itself was loaded from:
// the bundle (dist/up-controllers.js, an entry of scripts/bundle-cli.mjs, beside dist/main.js)
// or the sources (src/cli/up/worker.ts through tsx, which a worker thread does not inherit from
// bin/flowops.js's register(): the thread registers it first, as bin/flowops.js does).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ControllersThreadError } from './errors.js';

export interface WorkerEntry {
  /** A file, or with `eval` a script that loads one. */
  code: string | URL;
  eval: boolean;
}

export function controllersWorkerEntry(here: string = import.meta.url): WorkerEntry {
  if (here.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./worker.ts', here).href;
    const load =
      `import(${JSON.stringify(tsx)})` + `.then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
    // A rejection here (a module that does not load) is uncaught in the thread: its 'error' event.
    return { code: `${load}.catch((err) => { process.nextTick(() => { throw err; }); });`, eval: true };
  }
  // The code that starts the thread is in dist/main.js or in one of dist/chunks/.
  const candidates = [new URL('./up-controllers.js', here), new URL('../up-controllers.js', here)];
  const found = candidates.find((u) => existsSync(fileURLToPath(u)));
  if (!found) {
    const where = candidates.map((u) => fileURLToPath(u)).join(' or ');
    const message = `the controllers thread's code is not at ${where}: rebuild with npm run build`;
    throw new ControllersThreadError('EntryMissing', message);
  }
  return { code: found, eval: false };
}
