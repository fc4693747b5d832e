import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * A forge stand-in that knows only what the forge publishes: each request must be an operation of
 * its OpenAPI description (path template + method) with a JSON body its schema accepts, read
 * closed (a property the schema does not list fails, so a misspelt field cannot pass). A request
 * that is not is answered 404/422 and kept in `errors`, which the tests assert empty.
 */

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

export interface RecordedRequest {
  operationId: string;
  method: string;
  path: string;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What to answer: a status code, or 'hang' (never answer: the client's timeout). */
export type Answer = number | 'hang';

export interface OpenApiReceiver {
  url: string;
  requests: RecordedRequest[];
  errors: string[];
  /** Decides each answer (default 201). */
  answer: (r: RecordedRequest) => Answer;
  stop(): Promise<void>;
}

interface Route {
  template: string;
  regex: RegExp;
  names: string[];
  literal: number;
}

function routesOf(doc: OpenApiDocument): Route[] {
  return Object.keys(doc.paths)
    .map((template) => {
      const names: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { template, regex: new RegExp(`^${source}$`), names, literal: template.replace(/\{[^}]+\}/g, '').length };
    })
    .sort((a, b) => b.literal - a.literal);
}

/** additionalProperties: false wherever an object schema lists its properties and says nothing else. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties' && v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, closed(s)]))
        : closed(v);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export async function startOpenApiReceiver(
  doc: OpenApiDocument,
  opts: { stripPrefix?: string } = {},
): Promise<OpenApiReceiver> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: doc.components ?? {} }, 'doc');
  const routes = routesOf(doc);
  const validators = new Map<string, ValidateFunction>();
  const receiver: OpenApiReceiver = { url: '', requests: [], errors: [], answer: () => 201, stop: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.method ?? 'GET').toLowerCase();
      const path = (req.url ?? '/').split('?')[0]!.replace(opts.stripPrefix ?? '', '');
      const route = routes.find((r) => r.regex.test(path) && doc.paths[r.template]?.[method]);
      if (!route) {
        receiver.errors.push(`${method.toUpperCase()} ${path}: no such operation in the OpenAPI description`);
        return void res.writeHead(404).end();
      }
      const op = doc.paths[route.template]![method] as Operation;
      const m = route.regex.exec(path)!;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        receiver.errors.push(`${method.toUpperCase()} ${path}: body is not JSON`);
        return void res.writeHead(400).end();
      }
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (schema) {
        const id = `${method} ${route.template}`;
        let validate = validators.get(id);
        if (!validate) {
          validate = ajv.compile(
            JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/', '"doc#/components/')) as object,
          );
          validators.set(id, validate);
        }
        if (!validate(body)) {
          receiver.errors.push(`${method.toUpperCase()} ${route.template}: ${ajv.errorsText(validate.errors)}`);
          return void res.writeHead(422).end();
        }
      }
      const recorded: RecordedRequest = {
        operationId: op.operationId ?? route.template,
        method,
        path,
        params,
        headers: req.headers,
        body,
      };
      receiver.requests.push(recorded);
      const answer = receiver.answer(recorded);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return receiver;
}
