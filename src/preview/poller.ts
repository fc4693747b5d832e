// Runs the previewer for every FlowSource with spec.previews, each at its own interval (default
// 1m), one pass at a time so previews never crowd the reconciles on a small machine. A forge's
// pull_request webhook (src/source/webhook-receiver.ts) asks for a source's pass at once.

import type { KubeObject } from '../kube/index.js';
import { parseDuration, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND, flowSourceSpecSchema } from '../api/index.js';
import { PullRequestPreviewer, type PreviewerOptions } from './previewer.js';

const DEFAULT_INTERVAL_MS = 60_000;

export interface PreviewPollerOptions extends PreviewerOptions {
  /** How often the list of sources is looked at (default 5 s); each source keeps its own interval. */
  tickMs?: number;
}

export class PreviewPoller {
  private readonly previewer: PullRequestPreviewer;
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly opts: PreviewPollerOptions) {
    this.previewer = new PullRequestPreviewer(opts);
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.tickMs ?? 5000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** A pull request of this source opened or moved: preview it on the next pass, which starts now. */
  trigger(namespace: string, name: string): void {
    this.due.set(`${namespace}/${name}`, 0);
    this.kick();
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again && this.timer) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async pass(): Promise<void> {
    let sources: KubeObject[];
    try {
      sources = (await this.opts.kube.list(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND)).items;
    } catch (err) {
      this.opts.log.debug({ err }, 'listing FlowSources for previews failed; tried again');
      return;
    }
    for (const src of sources) {
      const spec = flowSourceSpecSchema.safeParse(src.spec);
      if (!spec.success || !spec.data.previews || spec.data.suspend) continue;
      const key = `${src.metadata.namespace ?? 'default'}/${src.metadata.name}`;
      if ((this.due.get(key) ?? 0) > Date.now()) continue;
      const every = spec.data.previews.interval ? parseDuration(spec.data.previews.interval) : DEFAULT_INTERVAL_MS;
      this.due.set(key, Date.now() + every);
      try {
        await this.previewer.previewSource(src);
      } catch (e) {
        // The forge's answer or the Provider's spec; the message names neither a token nor an address.
        this.opts.log.warn({ source: key, err: e instanceof Error ? e.message : String(e) }, 'previews failed');
      }
    }
  }
}
