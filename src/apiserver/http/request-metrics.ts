// kube-apiserver's apiserver_request_total: every resource request counted by verb, group,
// version, resource, subresource and HTTP code once its answer is sent. What a client wrote is
// read from the server's own counter, not from the client (the engine's write tests and the
// engine bench count its writes here).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, type Registry } from 'prom-client';
import type { ResourceRequest } from './request-info.js';

const NAME = 'apiserver_request_total';
const LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'code'] as const;

export type RequestCounter = (
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  query: URLSearchParams,
) => void;

/** kube-apiserver's verb: list and watch for collection GETs, apply for server-side apply patches. */
export function verbOf(
  method: string | undefined,
  info: ResourceRequest,
  query: URLSearchParams,
  contentType: string | undefined,
): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (query.get('watch') === 'true' || query.get('watch') === '1') return 'WATCH';
      return info.name === undefined ? 'LIST' : 'GET';
    case 'POST':
      return 'POST';
    case 'PUT':
      return 'PUT';
    case 'PATCH':
      return contentType?.startsWith('application/apply-patch') ? 'APPLY' : 'PATCH';
    case 'DELETE':
      return info.name === undefined ? 'DELETECOLLECTION' : 'DELETE';
    default:
      return method ?? 'UNKNOWN';
  }
}

/** The verbs that change stored state. */
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'APPLY',
  'DELETE',
  'DELETECOLLECTION',
]);

/** Registered once per registry (several servers in one test process may share one); none without a registry. */
export function requestCounter(registry: Registry | undefined): RequestCounter | undefined {
  if (!registry) return undefined;
  const existing = registry.getSingleMetric(NAME) as Counter<(typeof LABELS)[number]> | undefined;
  const counter =
    existing ??
    new Counter({
      name: NAME,
      help:
        'Counter of apiserver requests broken out for each verb, API group, version, resource, subresource and ' +
        'HTTP response code.',
      labelNames: [...LABELS],
      registers: [registry],
    });
  return (req, res, info, query) => {
    const verb = verbOf(req.method, info, query, req.headers['content-type']);
    const { group, version, resource } = info;
    const subresource = info.subresource ?? '';
    res.once('finish', () => {
      counter.inc({ verb, group, version, resource, subresource, code: String(res.statusCode) });
    });
  };
}
