// The http step: one request (same-origin redirects followed), the response as outputs, status
// ≥ 400 as a StepError with that status code. Secret header values never reach logs, outputs or
// error messages.

import type { HttpStep } from '../api/index.js';
import { JsonPathError, parseKubectlPath } from '../jsonpath/index.js';
import { jsonPathOutput, toOutputValue } from './output-value.js';
import { Masker } from './mask.js';
import { buildBody, buildHeaders } from './http-request.js';
import { abortError, invalid, isPlainObject } from './step-errors.js';
import { StepError, type Outputs, type StepContext, type StepExecutor, type StepResult } from './types.js';
import { checkUrl, displayUrl } from './url-guard.js';
import { renderUrl } from './url-render.js';

const MAX_READ = 1024 * 1024;
const MAX_BODY_OUTPUT = 64 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

interface Request {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * Follows redirects by hand: on a hop to another origin the headers that carry credentials (ours
 * from Secrets included) are dropped, which fetch's own redirect handling would not do for custom
 * headers such as X-Api-Key.
 */
async function send(first: Request, secret: Set<string>, signal: AbortSignal): Promise<{ res: Response; url: URL }> {
  let req = first;
  for (let hop = 0; ; hop++) {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body }),
      redirect: 'manual',
      signal,
    });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location || hop >= MAX_REDIRECTS) return { res, url: req.url };
    const next = new URL(location, req.url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { res, url: req.url };
    await res.body?.cancel();
    const headers = { ...req.headers };
    if (next.origin !== req.url.origin) for (const name of [...secret, ...CREDENTIAL_HEADERS]) delete headers[name];
    const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === 'POST');
    if (toGet) delete headers['content-type'];
    req = { url: next, method: toGet ? 'GET' : req.method, headers, body: toGet ? undefined : req.body };
  }
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_READ) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_READ);
}

function parseBody(text: string, contentType: string): unknown {
  const looksJson = /\bjson\b/i.test(contentType) || /^\s*[{[]/.test(text);
  if (!looksJson) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function responseOutputs(step: HttpStep, res: Response, text: string, json: unknown): Outputs {
  const headers: Record<string, string> = {};
  for (const [name, value] of res.headers.entries()) headers[name.toLowerCase()] = value;
  const body =
    json !== undefined && text.length <= MAX_BODY_OUTPUT ? toOutputValue(json) : text.slice(0, MAX_BODY_OUTPUT);
  const outputs: Outputs = { status: res.status, headers, body };
  if (step.outputs) {
    for (const [name, path] of Object.entries(step.outputs))
      outputs[name] = json === undefined ? null : jsonPathOutput(json, path);
  } else if (isPlainObject(json)) {
    // `{{ .Steps.create.Outputs.id }}` for an API that answers {"id": …}; status/headers/body win.
    for (const [k, v] of Object.entries(json)) if (!(k in outputs)) outputs[k] = toOutputValue(v);
  }
  return outputs;
}

async function run(step: HttpStep, ctx: StepContext): Promise<StepResult> {
  for (const [name, path] of Object.entries(step.outputs ?? {})) {
    try {
      parseKubectlPath(path);
    } catch (err) {
      throw invalid(`${step.name}.outputs.${name}: ${err instanceof JsonPathError ? err.message : String(err)}`);
    }
  }
  const masker = new Masker();
  const url = checkUrl(step.url, renderUrl(step.url, ctx.data, `${step.name}.url`), `${step.name}.url`);
  const { headers, secret } = await buildHeaders(step, ctx, masker);
  const body = buildBody(step, ctx);
  const method = step.method ?? (body ? 'POST' : 'GET');
  if (body && (method === 'GET' || method === 'HEAD'))
    throw invalid(`${step.name}: a ${method} request cannot have a body`);
  if (body && !('content-type' in headers)) headers['content-type'] = body.contentType;
  const what = `${method} ${displayUrl(url)}`;

  ctx.log.debug({ step: step.name, method, url: displayUrl(url) }, 'http request');
  let res: Response;
  let text: string;
  try {
    ({ res } = await send({ url, method, headers, body: body?.body }, secret, ctx.signal));
    text = await readCapped(res);
  } catch (err) {
    if (ctx.signal.aborted) throw abortError(ctx.signal, what);
    const cause =
      err instanceof Error && err.cause instanceof Error
        ? err.cause.message
        : err instanceof Error
          ? err.message
          : String(err);
    throw new StepError(masker.mask(`${what}: ${cause}`), { reason: 'HTTPRequestFailed' });
  }
  ctx.log.debug({ step: step.name, method, url: displayUrl(url), status: res.status }, 'http response');
  if (res.status >= 400) {
    const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    const message = `${what}: ${res.status} ${res.statusText}${excerpt ? `: ${excerpt}` : ''}`;
    throw new StepError(masker.mask(message), { reason: 'HTTPError', statusCode: res.status });
  }
  const outputs = responseOutputs(step, res, text, parseBody(text, res.headers.get('content-type') ?? ''));
  for (const [k, v] of Object.entries(outputs)) outputs[k] = masker.maskDeep(v);
  return { outputs };
}

export const httpExecutor: StepExecutor<HttpStep> = { type: 'http', run };
