// The controller side of `flowops up` as the main thread sees it: one Runnable of the main
// manager (started after the API server, stopped before it), whatever thread it runs on, with
// the calls that cross from the main thread's routes (Sync now, pushes, webhooks, /metrics).
import type { Registry } from 'prom-client';
import type { Runnable } from '../../manager/index.js';

export type ControllersLayout = 'worker-thread' | 'in-process';

export interface ControllerSide extends Runnable {
  readonly layout: ControllersLayout;
  /** What /readyz?verbose says of it ("worker thread 1", "main thread"). */
  describe(): string;
  /** A FlowSource syncs now. */
  trigger(namespace: string, name: string): void;
  /** A FlowSource's previews run now. */
  previewTrigger(namespace: string, name: string): void;
  /** The registry a /metrics scrape answers with: the main thread's, with the controller side's merged in. */
  scrape(main: Registry): Promise<Registry>;
}

/** `--controllers-in-process` or FLOWOPS_CONTROLLERS_IN_PROCESS=1: everything on one thread, as before. */
export function layoutOf(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): ControllersLayout {
  return flag === true || env.FLOWOPS_CONTROLLERS_IN_PROCESS === '1' ? 'in-process' : 'worker-thread';
}
