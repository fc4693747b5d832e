/** One finding in a template or manifest, at an offset into that template's source. */
export interface TemplateFinding {
  offset: number;
  severity: 'error' | 'warning';
  message: string;
}

export class Findings {
  readonly list: TemplateFinding[] = [];
  private readonly seen = new Set<string>();

  add(offset: number, severity: TemplateFinding['severity'], message: string): void {
    const key = `${offset}\u0000${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ offset, severity, message });
  }

  error(offset: number, message: string): void {
    this.add(offset, 'error', message);
  }

  warning(offset: number, message: string): void {
    this.add(offset, 'warning', message);
  }
}
