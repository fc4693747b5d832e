// The entry of `flowops up`'s controllers thread (a node:worker_threads Worker started by
// controllers-thread.ts): the controller side runs here, off the thread that serves the API, so
// the API server and the reconciles use two cores. Bundled as dist/up-controllers.js; from the
// sources it is loaded through tsx, as bin/flowops.js loads src/cli/main.ts.
//
// Logs: this thread writes its own lines to stderr (pino, synchronous, one write per line), as the
// main thread does, so nothing is relayed and a crash loses no line already logged.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { createLogger } from '../../log/index.js';
import { startControllerParts, type ControllerParts } from './controller-parts.js';
import { isToControllers, type ControllersConfig, type FromControllers, type ToControllers } from './protocol.js';

const port = parentPort;
// Invariant: only up-command's Worker loads this module, so a parent port is always there.
if (!port) throw new Error('invariant: src/cli/up/worker.ts is the entry of a worker thread, not a command');
const config: ControllersConfig = workerData;
const log = createLogger({ command: 'up', thread: 'controllers' }, config.logFormat);
if (config.logLevel) log.level = config.logLevel;
const post = (message: FromControllers): void => port.postMessage(message);

let parts: ControllerParts | undefined;
let stopping = false;

async function handle(message: ToControllers): Promise<void> {
  switch (message.type) {
    case 'sync':
      return parts?.trigger(message.namespace, message.name);
    case 'preview':
      return parts?.previewTrigger(message.namespace, message.name);
    case 'scrape':
      return post({ type: 'scraped', id: message.id, metrics: parts ? await parts.scrape() : [] });
    case 'stop':
      if (stopping) return;
      stopping = true;
      // The thread ends with the exit code the main thread waits on: 0 once every part stopped.
      await parts?.stop();
      log.info({ threadId }, 'controllers thread stopped');
      process.exit(0);
  }
}

port.on('message', (message: unknown) => {
  if (!isToControllers(message)) return void log.warn({ message }, 'controllers thread: unknown message ignored');
  // A failure here is the thread's: uncaught, it ends the thread and the main thread says so.
  handle(message).catch((err: unknown) => {
    throw err;
  });
});

// A part that fails to start is thrown, uncaught: the main thread gets it as the worker's 'error'.
parts = await startControllerParts(config, log);
log.info({ threadId }, 'controllers thread started');
post({ type: 'started' });
