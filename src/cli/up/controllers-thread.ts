// `flowops up`'s controller side in a node:worker_threads Worker (worker.ts), the default layout.
//
// A Worker rather than a child process: `up` stays one command and one process (one PID to stop,
// one exit code, nothing to find on PATH), the thread starts in a fraction of a child's time, and
// it still shares nothing with the API server's thread but the messages of protocol.ts: the
// controllers reach the API server over HTTP through the kubeconfig, as they did in one thread.
//
// Started: when the thread says every part started (/readyz of `up` waits on it through the
// manager). Stopped: a stop message, then the thread's exit within a deadline, else terminated.
// Failed after start (an uncaught error, an unexpected exit): `onCrash`, which in `up` logs and
// exits non-zero rather than restarting the thread, so no half-up process lingers unnoticed.
import { Worker } from 'node:worker_threads';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Logger } from '../../log/index.js';
import type { ControllerSide } from './controller-side.js';
import { ControllersThreadError } from './errors.js';
import {
  isFromControllers,
  type ControllersConfig,
  type FromControllers,
  type ScrapedMetrics,
  type ToControllers,
} from './protocol.js';
import { controllersWorkerEntry, type WorkerEntry } from './worker-entry.js';

export interface ControllersThreadOptions {
  log: Logger;
  /** The thread failed after it had started. */
  onCrash(err: ControllersThreadError): void;
  stopDeadlineMs?: number;
  /** The thread's code; default the controllers' (worker-entry.ts). */
  entry?: WorkerEntry;
  scrapeDeadlineMs?: number;
}

/**
 * Process-wide figures (CPU, memory, handles) are the main thread's to report; the thread's own
 * copies would be summed into them. Its event-loop figures are left out with them.
 */
const PROCESS_WIDE = /^(process|nodejs)_/;

export class ControllersThread implements ControllerSide {
  readonly name = 'controllers';
  readonly layout = 'worker-thread' as const;
  private worker: Worker | undefined;
  private state: 'new' | 'starting' | 'started' | 'stopping' | 'ended' = 'new';
  private exited: Promise<number> = Promise.resolve(0);
  private nextScrape = 0;
  private readonly scrapes = new Map<number, (metrics: ScrapedMetrics) => void>();

  constructor(
    private readonly config: ControllersConfig,
    private readonly opts: ControllersThreadOptions,
  ) {}

  start(): Promise<void> {
    const entry = this.opts.entry ?? controllersWorkerEntry();
    const worker = new Worker(entry.code, { eval: entry.eval, workerData: this.config });
    this.worker = worker;
    this.state = 'starting';
    this.exited = new Promise((resolve) => worker.once('exit', resolve));
    return new Promise((resolve, reject) => {
      let failure: ControllersThreadError | undefined;
      worker.on('message', (message: unknown) => {
        if (!isFromControllers(message)) return;
        if (message.type === 'started' && this.state === 'starting') {
          this.state = 'started';
          resolve();
        } else this.onMessage(message);
      });
      worker.on('error', (err: Error) => {
        const message = `the controllers thread failed: ${err.message}`;
        failure = new ControllersThreadError('ThreadFailed', message, { cause: err });
      });
      worker.on('exit', (code: number) => {
        const was = this.state;
        this.state = 'ended';
        for (const answer of this.scrapes.values()) answer([]);
        this.scrapes.clear();
        if (was === 'stopping') return;
        const err =
          failure ??
          new ControllersThreadError('ThreadExited', `the controllers thread ended by itself (exit code ${code})`);
        if (was === 'starting') reject(err);
        else this.opts.onCrash(err);
      });
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker || this.state === 'ended' || this.state === 'stopping') return;
    this.state = 'stopping';
    this.post({ type: 'stop' });
    const deadlineMs = this.opts.stopDeadlineMs ?? 20_000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
    const outcome = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      await worker.terminate();
      const message = `the controllers thread did not stop within ${deadlineMs} ms: terminated`;
      throw new ControllersThreadError('StopTimeout', message);
    }
    if (outcome !== 0) {
      throw new ControllersThreadError('ThreadFailed', `the controllers thread stopped with exit code ${outcome}`);
    }
  }

  ready(): boolean {
    return this.state === 'started';
  }

  describe(): string {
    return `worker thread ${this.worker?.threadId ?? '-'}`;
  }

  trigger(namespace: string, name: string): void {
    this.post({ type: 'sync', namespace, name });
  }

  previewTrigger(namespace: string, name: string): void {
    this.post({ type: 'preview', namespace, name });
  }

  /** The main thread's registry with the thread's merged in (same name and labels: summed). */
  async scrape(main: Registry): Promise<Registry> {
    const [own, theirs] = await Promise.all([main.getMetricsAsJSON(), this.scrapeThread()]);
    return AggregatorRegistry.aggregate([own, theirs.filter((m) => !PROCESS_WIDE.test(m.name))]);
  }

  private scrapeThread(): Promise<ScrapedMetrics> {
    if (this.state !== 'started') return Promise.resolve([]);
    const id = ++this.nextScrape;
    const deadlineMs = this.opts.scrapeDeadlineMs ?? 5000;
    return new Promise((resolve) => {
      // A thread too busy to answer in time leaves its figures out of this scrape, not the scrape failed.
      const timer = setTimeout(() => {
        this.scrapes.delete(id);
        this.opts.log.warn({ deadlineMs }, 'the controllers thread did not answer a metrics scrape in time');
        resolve([]);
      }, deadlineMs);
      this.scrapes.set(id, (metrics) => {
        clearTimeout(timer);
        resolve(metrics);
      });
      this.post({ type: 'scrape', id });
    });
  }

  private onMessage(message: FromControllers): void {
    if (message.type !== 'scraped') return;
    const answer = this.scrapes.get(message.id);
    this.scrapes.delete(message.id);
    answer?.(message.metrics);
  }

  private post(message: ToControllers): void {
    const open = this.state === 'started' || (this.state === 'stopping' && message.type === 'stop');
    if (open) this.worker?.postMessage(message);
  }
}
