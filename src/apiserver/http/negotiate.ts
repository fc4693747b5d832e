import type { ResourceType } from '../registry/types.js';
import { PROTOBUF_MEDIA_TYPE } from '../protobuf/index.js';

/** How an answer is written: JSON, or Kubernetes protobuf (its envelope, or length-delimited watch frames). */
export type AnswerFormat = 'json' | 'protobuf';

interface MediaRange {
  type: string;
  params: Map<string, string>;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges = accept.split(',').map((part): MediaRange => {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    const params = new Map(
      rest.map((p) => [p.split('=')[0]!.trim().toLowerCase(), (p.split('=')[1] ?? '').trim()] as [string, string]),
    );
    const q = params.has('q') ? Number(params.get('q')) : 1;
    return { type: type.toLowerCase(), params, q: Number.isNaN(q) ? 0 : q };
  });
  // Highest q first; equal q keeps the client's order (a stable sort), as kube's negotiation does.
  return ranges.filter((r) => r.type && r.q > 0).sort((a, b) => b.q - a.q);
}

const JSON_LIKE = new Set(['*/*', 'application/*', 'application/json', 'application/yaml']);

/**
 * The format of an answer for `accept` (k8s.io/apiserver endpoints/handlers/negotiation): the first media range
 * the endpoint can write. Protobuf is written for built-in kinds, and for PartialObjectMetadata(List) of any kind
 * (custom resources included); a Table only as JSON (metav1.Table has no protobuf form). undefined: none fits.
 */
export function answerFormat(accept: string | undefined, t: ResourceType): AnswerFormat | undefined {
  if (!accept?.trim()) return 'json';
  for (const r of parseAccept(accept)) {
    const as = r.params.get('as');
    if (as && as !== 'Table' && as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') continue;
    if (r.type === PROTOBUF_MEDIA_TYPE) {
      if (as === 'Table') continue;
      if (!as && t.custom) continue;
      return 'protobuf';
    }
    if (JSON_LIKE.has(r.type)) return 'json';
  }
  return undefined;
}
