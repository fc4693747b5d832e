// What a process runs, as controller-runtime's Runnable: started once with the process's signal,
// stopped once. `ready` is the part's own readiness (an informer's first list done), read by the
// process's /readyz through the manager; a part without it is ready once started.

export interface Runnable {
  readonly name: string;
  start(signal: AbortSignal): void | Promise<void>;
  stop(): Promise<void>;
  ready?(): boolean;
}

/** A part that needs nothing at start (already running, such as a listener): only stopped. */
export function stopOnly(name: string, stop: () => Promise<void> | void): Runnable {
  return { name, start: () => undefined, stop: async () => stop() };
}
