// Serves the built UI (ui/dist, made by `npm run build`) from disk. Unknown paths under /ui/ get
// index.html so that every page's URL can be opened directly (history routing).

import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

export const NOT_BUILT =
  'The web view is not built. Run `npm run build` (it needs the dev dependencies) and restart.\n';

export class StaticFiles {
  constructor(private readonly root: string) {}

  get built(): boolean {
    return existsSync(join(this.root, 'index.html'));
  }

  /** `rel` is the path below /ui/, already decoded. */
  serve(rel: string, res: ServerResponse, head: boolean): void {
    if (!this.built) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(NOT_BUILT);
      return;
    }
    const file = this.fileFor(rel);
    const hashed = file.startsWith(join(this.root, 'assets') + sep);
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': statSync(file).size,
      // Vite names assets by content hash; index.html must be re-read to pick up a new build.
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (head) res.end();
    else createReadStream(file).pipe(res);
  }

  private fileFor(rel: string): string {
    const candidate = normalize(join(this.root, rel));
    const inside = candidate.startsWith(this.root + sep);
    if (inside && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    return join(this.root, 'index.html');
  }
}
