// What of an answer the fuzzer compares: the status code and, for a Status, its reason and each
// cause's field and type. Messages are left out: they are compared by the scenario suite.
import type { Answer } from '../../test/fidelity/http-target.js';

export function signature(a: Answer): string {
  if (a.status < 300) return String(a.status);
  let body: unknown;
  try {
    body = JSON.parse(a.body);
  } catch {
    return `${a.status} <not JSON>`;
  }
  if (typeof body !== 'object' || body === null) return `${a.status} <not a Status>`;
  const status = body as { reason?: unknown; details?: { causes?: Array<{ field?: unknown; reason?: unknown }> } };
  const causes = (status.details?.causes ?? []).map((c) => `${String(c.field ?? '')}:${String(c.reason ?? '')}`).sort();
  return `${a.status} ${String(status.reason ?? '')}${causes.length ? ` [${[...new Set(causes)].join(' ')}]` : ''}`;
}
