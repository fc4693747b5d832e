// JSON calls to a test server as the validation test files make them: the answer's status and body,
// and its Status causes as `field: message` lines.
import { expect } from 'vitest';
import type { TestServer } from './apiserver.js';

export interface Cause {
  field: string;
  reason: string;
  message: string;
}

/** What every answer may carry; a file adds the fields of the objects it reads (`B`). */
export interface StatusBody {
  message?: string;
  metadata?: { name?: string; resourceVersion?: string; uid?: string };
  details?: { causes?: Cause[] };
}

export interface Answer<B = Record<string, unknown>> {
  status: number;
  body: B & StatusBody;
}

/** `server` is read at call time (the file's beforeAll starts it). */
export function apiCalls<B = Record<string, unknown>>(server: () => TestServer) {
  const call = async (method: string, path: string, body: object): Promise<Answer<B>> => {
    const r = await fetch(`${server().server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as B & StatusBody };
  };
  const causes = (a: Answer<B>): string[] => (a.body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  /** Creates `obj` at `path`, then PUTs it with `edit` (at `sub`, e.g. `/status`) and the stored resourceVersion. */
  const createThenPut = async (
    path: string,
    obj: { metadata: { name: string } },
    edit: object,
    sub = '',
  ): Promise<Answer<B>> => {
    const first = await call('POST', path, obj);
    expect(first.status).toBe(201);
    return call('PUT', `${path}/${obj.metadata.name}${sub}`, {
      ...obj,
      ...edit,
      metadata: { name: obj.metadata.name, resourceVersion: first.body.metadata?.resourceVersion },
    });
  };
  return { call, causes, createThenPut };
}
