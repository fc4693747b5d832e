import type { ServerResponse } from 'node:http';
import { encodeKubeProtobuf, encodeListOfTexts, ProtobufEncodeError } from '../protobuf/index.js';
import type { JsonObject } from '../schema/types.js';
import type { ApiError } from './status.js';

/** A list whose items are stored JSON texts: what a protobuf answer encodes item by item (see encodeListOfTexts). */
export interface ListOfTexts {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  items: string[];
}

/** JSON text in pieces, written one after another (a large list is never joined into one string). */
export class JsonParts {
  constructor(
    readonly parts: string[],
    /** The same list with its items as texts, when it is one. */
    readonly list?: ListOfTexts,
  ) {}
}

/** Responses whose request asked for indented JSON (see prettyPrint in query.ts). */
const indented = new WeakSet<ServerResponse>();

/** Marks a response, before anything is written to it, to be answered with indented JSON. */
export function answerIndented(res: ServerResponse): void {
  indented.add(res);
}

export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: string[] = []): void {
  const headers: Record<string, string | string[]> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
  };
  if (warnings.length) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  if (indented.has(res)) body = indent(body);
  if (body instanceof JsonParts) {
    res.writeHead(code, headers);
    for (const p of body.parts) res.write(p);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(code, headers);
  res.end(text);
}

/**
 * An answer as a Kubernetes protobuf body. A body without a protobuf form (a value of the wrong JSON type in a
 * stored object) goes out as JSON, which every client that asks for protobuf also lists.
 */
export function sendProtobuf(res: ServerResponse, code: number, body: unknown, warnings: string[] = []): void {
  let bytes: Buffer;
  try {
    if (body instanceof JsonParts && body.list) bytes = encodeListOfTexts(body.list);
    else {
      const text = body instanceof JsonParts ? body.parts.join('') : typeof body === 'string' ? body : undefined;
      bytes = encodeKubeProtobuf((text === undefined ? body : JSON.parse(text)) as JsonObject);
    }
  } catch (e) {
    if (!(e instanceof ProtobufEncodeError)) throw e;
    return sendJson(res, code, body, warnings);
  }
  const headers: Record<string, string | string[]> = {
    'Content-Type': 'application/vnd.kubernetes.protobuf',
    'Cache-Control': 'no-cache, private',
    'Content-Length': String(bytes.length),
  };
  if (warnings.length) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(bytes);
}

/** json.MarshalIndent(obj, "", "  "), which is what JSON.stringify's two-space indent writes too. */
function indent(body: unknown): string {
  const text = body instanceof JsonParts ? body.parts.join('') : typeof body === 'string' ? body : JSON.stringify(body);
  return JSON.stringify(JSON.parse(text), null, 2);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.code, err.toStatus());
}
