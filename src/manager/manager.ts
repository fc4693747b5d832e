// One manager per process (controller-runtime's Manager): the command adds its parts in the order
// they depend on each other, the manager starts them in that order, stops them in the reverse one,
// and answers /readyz only when every part has started and says it is ready (caches synced). A part
// that fails to start stops the ones already started, so a half-started process never lingers.
import type { Logger } from '../log/index.js';
import type { Runnable } from './runnable.js';

type State = 'new' | 'starting' | 'started' | 'stopping' | 'stopped';

export class Manager {
  private readonly parts: Runnable[] = [];
  private started: Runnable[] = [];
  private state: State = 'new';
  private readonly abort = new AbortController();

  constructor(private readonly log: Logger) {}

  /** Adds a part; parts added while the manager runs are started at once, after the others. */
  async add(part: Runnable): Promise<void> {
    this.parts.push(part);
    if (this.state === 'started') await this.startPart(part);
  }

  /** Starts every part in order; on a failure stops those started and rethrows. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'starting';
    for (const part of this.parts) {
      try {
        await this.startPart(part);
      } catch (err) {
        this.log.error({ err, part: part.name }, 'a part failed to start; stopping the others');
        await this.stop();
        throw err;
      }
    }
    this.state = 'started';
  }

  /** Stops the started parts, last first; a part that fails to stop is logged and the rest go on. */
  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    this.abort.abort();
    for (const part of this.started.reverse()) {
      await part.stop().catch((err: unknown) => this.log.warn({ err, part: part.name }, 'part did not stop cleanly'));
    }
    this.started = [];
    this.state = 'stopped';
  }

  /** Every part started and ready: what /readyz answers. */
  ready(): boolean {
    return this.state === 'started' && this.parts.every((p) => p.ready?.() ?? true);
  }

  /** The parts not ready yet, for /readyz's body and the logs. */
  notReady(): string[] {
    if (this.state !== 'started') return [`manager ${this.state}`];
    return this.parts.filter((p) => !(p.ready?.() ?? true)).map((p) => p.name);
  }

  private async startPart(part: Runnable): Promise<void> {
    await part.start(this.abort.signal);
    this.started.push(part);
  }
}
