import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { isProtobufContentType } from '../protobuf/index.js';
import type { JsonObject } from '../registry/types.js';
import { checkJsonNesting, checkYamlNesting, type DecodeSite } from './nesting.js';
import { decodeProtobufBody, type BodyTarget } from './protobuf-body.js';
import { errors } from './status.js';
import { checkGoDecoding } from '../validation/decode-check.js';

/** kube-apiserver's default request body limit. */
const MAX_BODY = 3 * 1024 * 1024;

/**
 * Events rather than `for await`: the async iterator costs more than a small body's parse. (Inline
 * arrows, not named ones: under tsx each named closure costs a helper call per request.)
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > MAX_BODY) return;
      size += chunk.length;
      if (size > MAX_BODY) return reject(errors.entityTooLarge(MAX_BODY));
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/**
 * Decodes an object body (POST, PUT) of `kind`: JSON, YAML, or protobuf (what client-go sends for every built-in
 * kind). `target` says whose endpoint it is, so that a protobuf body of another kind or for a custom resource is
 * answered as kube-apiserver answers it.
 */
export function decodeObject(req: IncomingMessage, raw: Buffer, kind: string, target?: BodyTarget): JsonObject {
  const type = mediaType(req);
  if (isProtobufContentType(type))
    return decodeProtobufBody(raw, target ?? { group: '', version: 'v1', kind, custom: false });
  const site = { object: kind };
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  if (!yaml && type !== 'application/json') throw errors.unsupportedBodyType();
  const value = yaml ? parseYamlBody(raw, site) : parseJsonBody(raw, site);
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest("Object 'Kind' is missing in the request body: expected a JSON object");
  }
  if (target) checkGoDecoding(value as JsonObject, target);
  return value as JsonObject;
}

/** JSON.parse, after refusing what nests deeper than the server handles (see nesting.ts). */
export function parseJsonBody(raw: Buffer, site: DecodeSite): unknown {
  checkJsonNesting(raw, site);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw errors.badRequest(`the request body could not be decoded as JSON: ${(e as Error).message}`);
  }
}

export function parseYamlBody(raw: Buffer, site: DecodeSite): unknown {
  const text = raw.toString('utf8');
  checkYamlNesting(raw, text, site);
  try {
    return parseYaml(text);
  } catch (e) {
    throw errors.badRequest(`error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}
