import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { vendoredOpenApi } from '../../openapi/vendored.js';
import { buildDocument, encodeDocument, type SwaggerDocument } from './document.js';

/**
 * The Content-Type kube-apiserver answers with. The name kubectl puts in Accept has `@v1.0`, but `@` is
 * not a MIME token character: client-go runs mime.ParseMediaType on the response and fails with
 * "mime: unexpected content after media subtype" (a 500 to the user) if it is echoed back.
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The paths kubectl (client-go discovery) fetches: `/openapi/v2`, then the pre-1.10 name on 404. */
export const OPENAPI_V2_PATHS: ReadonlySet<string> = new Set(['/openapi/v2', '/swagger-2.0.0.pb-v1']);

interface Encoded {
  body: Buffer;
  etag: string;
}

/** The OpenAPI v2 document in both encodings, built on first request and rebuilt when a CRD changes. */
export class OpenApiV2 {
  private cache: { version: number; doc: SwaggerDocument; json: Encoded; protobuf: Encoded } | undefined;

  constructor(private readonly registry: ResourceRegistry) {}

  document(): SwaggerDocument {
    return this.current().doc;
  }

  protobuf(): Encoded {
    return this.current().protobuf;
  }

  json(): Encoded {
    return this.current().json;
  }

  private current(): NonNullable<OpenApiV2['cache']> {
    if (this.cache?.version === this.registry.version) return this.cache;
    const doc = buildDocument(this.registry.all(), vendoredOpenApi.swagger());
    this.cache = {
      version: this.registry.version,
      doc,
      json: withEtag(Buffer.from(JSON.stringify(doc))),
      protobuf: withEtag(encodeDocument(doc)),
    };
    return this.cache;
  }
}

function withEtag(body: Buffer): Encoded {
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').slice(0, 32).toUpperCase()}"` };
}

const perRegistry = new WeakMap<ResourceRegistry, OpenApiV2>();

export function openApiV2For(registry: ResourceRegistry): OpenApiV2 {
  let v2 = perRegistry.get(registry);
  if (!v2) perRegistry.set(registry, (v2 = new OpenApiV2(registry)));
  return v2;
}

/**
 * Answers `GET /openapi/v2` and `GET /swagger-2.0.0.pb-v1`. The protobuf form is the default (it is what
 * client-go asks for and decodes, with no JSON fallback); `/openapi/v2` answers JSON only when the
 * Accept header names JSON and not protobuf.
 */
export function serveOpenApiV2(
  registry: ResourceRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  const asJson = path === '/openapi/v2' && accept.includes('json') && !accept.includes('protobuf');
  const v2 = openApiV2For(registry);
  const { body, etag } = asJson ? v2.json() : v2.protobuf();
  const headers: Record<string, string> = {
    'Content-Type': asJson ? 'application/json' : OPENAPI_V2_PROTOBUF,
    'Cache-Control': 'no-cache, private',
    ETag: etag,
    Vary: 'Accept',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
