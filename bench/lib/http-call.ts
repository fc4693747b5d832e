import { request, type Agent } from 'node:http';

/** One JSON request on a keep-alive agent; resolves with the status code once the answer is read. */
export function callJson(
  agent: Agent,
  url: string,
  method: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<number> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, { method, agent, headers: text ? { 'content-type': contentType } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(text);
  });
}
