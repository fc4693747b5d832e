// Bounded capture of a child's output: a failing script can print megabytes, but an error message
// (and the Flow status it ends up in) needs only the end of it.

export class Tail {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size > this.limit * 2) {
      const joined = this.chunks.join('');
      this.chunks = [joined.slice(-this.limit)];
      this.size = this.chunks[0]!.length;
    }
  }

  text(): string {
    return this.chunks.join('');
  }
}

export class Head {
  private buf = '';

  constructor(private readonly limit: number) {}

  push(text: string): void {
    if (this.buf.length < this.limit) this.buf += text.slice(0, this.limit - this.buf.length);
  }

  text(): string {
    return this.buf;
  }
}

/** The last `lines` lines, at most `bytes` characters, of a process's stderr. */
export function tailLines(text: string, lines = 20, bytes = 2048): string {
  const kept = text.replace(/\s+$/, '').split('\n').slice(-lines).join('\n');
  return kept.length > bytes ? `…${kept.slice(-bytes)}` : kept;
}
