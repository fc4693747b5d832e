import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { decodeKubeProtobuf, isProtobufContentType, ProtobufDecodeError } from '../protobuf/index.js';
import type { JsonObject } from '../registry/types.js';
import { checkJsonNesting, checkYamlNesting, type DecodeSite } from './nesting.js';
import { ApiError, errors } from './status.js';

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

/** Decodes an object body (POST, PUT) of `kind`: JSON, YAML, or the protobuf kubectl ≥ 1.32 sends for some built-ins. */
export function decodeObject(req: IncomingMessage, raw: Buffer, kind: string): JsonObject {
  const type = mediaType(req);
  if (isProtobufContentType(type)) {
    try {
      return decodeKubeProtobuf(raw).object as JsonObject;
    } catch (e) {
      // 415 as before, now saying what could not be read (an unknown kind, an unknown field, a bad body).
      const base = errors.unsupportedMediaType();
      if (!(e instanceof ProtobufDecodeError)) throw base;
      throw new ApiError(base.code, base.reason, `${base.message}; ${e.message}`);
    }
  }
  const site = { object: kind };
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  if (!yaml && type !== 'application/json') throw errors.unsupportedBodyType();
  const value = yaml ? parseYamlBody(raw, site) : parseJsonBody(raw, site);
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest('Object \'Kind\' is missing in the request body: expected a JSON object');
  }
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
