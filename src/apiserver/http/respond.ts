import type { ServerResponse } from 'node:http';
import { ApiError } from './status.js';

/** JSON text in pieces, written one after another (a large list is never joined into one string). */
export class JsonParts {
  constructor(readonly parts: string[]) {}
}

export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: string[] = []): void {
  const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
  if (warnings.length) headers['Warning'] = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
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

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.code, err.toStatus());
}
