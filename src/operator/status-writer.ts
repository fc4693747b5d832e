import type { KubeClient } from '../kube/index.js';
import { isNotFound } from '../kube/client.js';
import type { Logger } from '../log/index.js';
import type { ControllerStatus } from './health.js';
import { OPERATOR_API_VERSION, OPERATOR_KIND } from './types.js';

const QUICK_WRITES = 3;
const MIN_INTERVAL_MS = 2000;
const DEBOUNCE_MS = 50;

/**
 * Writes `status.controllers[]` of one Operator. Like the original (spec §1.5), the first few
 * updates go out at once and later ones at most every 2 s, so a controller failing on every event
 * cannot flood the API server.
 */
export class OperatorStatusWriter {
  private timer: NodeJS.Timeout | undefined;
  private writes = 0;
  private lastWrite = 0;
  private lastBody = '';
  private stopped = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly name: string,
    private readonly log: Logger,
    private readonly summarize: () => ControllerStatus[],
  ) {}

  schedule(): void {
    if (this.stopped || this.timer) return;
    const wait =
      this.writes < QUICK_WRITES ? DEBOUNCE_MS : Math.max(DEBOUNCE_MS, this.lastWrite + MIN_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, wait);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async flush(): Promise<void> {
    if (this.stopped) return;
    const body = { status: { controllers: this.summarize() } };
    const text = JSON.stringify(body);
    if (text === this.lastBody) return;
    this.writes++;
    this.lastWrite = Date.now();
    try {
      await this.kube.patch({ apiVersion: OPERATOR_API_VERSION, kind: OPERATOR_KIND, name: this.name }, body, 'merge', {
        subresource: 'status',
      });
      this.lastBody = text;
    } catch (err) {
      if (!isNotFound(err))
        this.log.warn({ operator: this.name, err: (err as Error).message }, 'could not write Operator status');
    }
  }
}
