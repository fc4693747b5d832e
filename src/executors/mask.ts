// Keeps secret values out of everything a step leaves behind: error messages, outputs, logs.

import type { OutputValue } from './types.js';

export const MASK = '***';

/** Env var names whose values are treated as secrets, as CI systems do. */
export const SECRET_NAME = /TOKEN|PASSWORD|PASSWD|SECRET|KEY|CREDENTIAL/i;

export class Masker {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    if (!value) return;
    this.secrets.add(value);
    // A secret read from a file often arrives with its trailing newline; its core must match too.
    const trimmed = value.trim();
    if (trimmed && trimmed !== value) this.secrets.add(trimmed);
  }

  addEnv(env: Record<string, string | undefined>): void {
    for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) this.add(value);
  }

  get size(): number {
    return this.secrets.size;
  }

  mask(text: string): string {
    if (this.secrets.size === 0) return text;
    // Longest first, so a secret that contains another is replaced whole.
    let out = text;
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(MASK);
    return out;
  }

  maskDeep(value: OutputValue): OutputValue {
    if (typeof value === 'string') return this.mask(value);
    if (Array.isArray(value)) return value.map((v) => this.maskDeep(v));
    if (value !== null && typeof value === 'object') {
      const out: { [k: string]: OutputValue } = {};
      for (const [k, v] of Object.entries(value)) {
        Object.defineProperty(out, this.mask(k), {
          value: this.maskDeep(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  }
}
