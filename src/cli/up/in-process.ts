// `flowops up --controllers-in-process`: the controller side on the main thread, one thread for
// everything (as before the split): for a debugger's single thread, and the bench's baseline.
import type { Registry } from 'prom-client';
import type { Logger } from '../../log/index.js';
import type { ControllerSide } from './controller-side.js';
import { startControllerParts, type ControllerParts } from './controller-parts.js';
import type { ControllersConfig } from './protocol.js';

export class InProcessControllers implements ControllerSide {
  readonly name = 'controllers';
  readonly layout = 'in-process' as const;
  private parts: ControllerParts | undefined;

  constructor(
    private readonly config: ControllersConfig,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.parts = await startControllerParts(this.config, this.log);
  }

  async stop(): Promise<void> {
    await this.parts?.stop();
  }

  ready(): boolean {
    return this.parts !== undefined;
  }

  describe(): string {
    return 'main thread (--controllers-in-process)';
  }

  trigger(namespace: string, name: string): void {
    this.parts?.trigger(namespace, name);
  }

  previewTrigger(namespace: string, name: string): void {
    this.parts?.previewTrigger(namespace, name);
  }

  /** One thread, one registry: the controllers recorded into the main thread's own. */
  async scrape(main: Registry): Promise<Registry> {
    this.parts?.refreshQueueDepth();
    return main;
  }
}
