// What crosses between `flowops up`'s main thread (API server, web view, Git, /metrics) and its
// controllers thread (worker.ts): the thread's start-up settings, passed once as workerData, and
// the few messages on the worker's port. Everything here is structured-clone data: the two
// threads share no object, only these messages.
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { TenancyPolicy } from '../../controller/index.js';
import type { LogFormat } from '../../log/index.js';
import type { SourcesOptions } from '../../runtime/index.js';

/** The controller side of `up`: what the thread (or, single-threaded, the main thread) starts. */
export interface ControllersConfig {
  /** The admin kubeconfig of `up`: the controllers reach the API server over HTTP, as before the split. */
  kubeconfig: string;
  logFormat?: LogFormat;
  /** Overrides FLOWOPS_LOG_LEVEL (the bench silences the controllers). */
  logLevel?: string;
  tenancy: TenancyPolicy;
  /** Script steps run from this thread: their sandbox is configured here (tenancy-flags.ts). */
  scripts: { memoryLimitBytes: number; isolate: boolean; hide: string[] };
  /** Folder relative chart / kustomize paths of Flows resolve against. */
  sourceDir: string;
  concurrency?: number;
  /** Install FlowOps' CRDs and run the Operator meta-controller (what `up` does). */
  installCrds: boolean;
  /** The FlowSource controller (Git poller + sync). */
  sources?: SourcesOptions;
  /** The workload simulator (--no-simulate leaves it out). */
  simulator?: { podStartMs: number; kubeletOnly: boolean; rootCa?: string };
  /** Providers and Alerts. */
  notify?: { viewUrl: string };
  /** Pull-request previews of the FlowSources with spec.previews. */
  previews?: { dataDir: string; viewUrl: string };
}

export type ScrapedMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Main thread → controllers thread. */
export type ToControllers =
  /** "Sync now" in the web view, a push to the embedded Git repository, a webhook. */
  | { type: 'sync'; namespace: string; name: string }
  /** A pull_request webhook: that source's previews run now. */
  | { type: 'preview'; namespace: string; name: string }
  /** A /metrics scrape: answered with the thread's registry as JSON. */
  | { type: 'scrape'; id: number }
  /** Ctrl-C: stop the parts, last started first, then end the thread. */
  | { type: 'stop' };

/** Controllers thread → main thread. */
export type FromControllers =
  /** Every part started: /readyz of `up` may pass. */
  { type: 'started' } | { type: 'scraped'; id: number; metrics: ScrapedMetrics };

const TO = new Set<ToControllers['type']>(['sync', 'preview', 'scrape', 'stop']);
const FROM = new Set<FromControllers['type']>(['started', 'scraped']);

function typeOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null && 'type' in message ? message.type : undefined;
}

/** A message from the port is `unknown` until its type is one of the protocol's. */
export function isToControllers(message: unknown): message is ToControllers {
  return TO.has(typeOf(message) as ToControllers['type']);
}

export function isFromControllers(message: unknown): message is FromControllers {
  return FROM.has(typeOf(message) as FromControllers['type']);
}
