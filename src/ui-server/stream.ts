// The server-sent-events stream. Every connection (and every reconnect after a restart, which
// EventSource makes by itself) starts with `hello`, on which the page refetches: a fresh
// snapshot on connect, so nothing needs resuming. Then `changes` batches follow.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChangeFeed } from './change-feed.js';
import type { ChangeMessage } from './types.js';

const HEARTBEAT_MS = 15_000;
/** How soon EventSource retries after the connection drops (its default is about 3 s). */
const RETRY_MS = 500;

export class ChangeStream {
  private readonly open = new Set<ServerResponse>();

  constructor(private readonly feed: ChangeFeed) {}

  /** `visible` narrows each batch to what this reader may see (a signed-in user's RBAC). */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    visible?: (changes: ChangeMessage[]) => Promise<ChangeMessage[]>,
  ): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\nevent: hello\ndata: {}\n\n`);
    const send = (changes: ChangeMessage[]) => {
      if (changes.length) res.write(`event: changes\ndata: ${JSON.stringify(changes)}\n\n`);
    };
    const unsubscribe = this.feed.subscribe((changes) =>
      visible ? void visible(changes).then(send, () => undefined) : send(changes),
    );
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    this.open.add(res);
    const close = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      this.open.delete(res);
    };
    req.on('close', close);
    res.on('close', close);
  }

  /** Ends every stream, so the server's close does not wait on them. */
  closeAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }
}
