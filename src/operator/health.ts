import type { Condition } from '../kube/index.js';
import { setCondition } from '../kube/conditions.js';

const RING = 10;

/** The original's error-string shortening (spec §1.5): over 245 characters keeps the first 119 and the last 120. */
export function shortenError(s: string): string {
  return s.length > 245 ? `${s.slice(0, 119)}[...]${s.slice(-120)}` : s;
}

export interface ControllerStatus {
  name: string;
  conditions: Condition[];
  lastErrors?: string[];
}

/**
 * One controller's error record and its Ready condition, with the original's reasons and
 * messages verbatim (misspelling included) so tools that read them keep working.
 */
export class ControllerHealth {
  critical: string | undefined;
  private readonly errors: string[] = [];
  private runtimeErrors = 0;
  private conditions: Condition[] = [];

  constructor(readonly name: string) {}

  setCritical(err: unknown): void {
    this.critical = message(err);
    this.push(this.critical);
  }

  addRuntime(err: unknown): void {
    this.runtimeErrors++;
    this.push(message(err));
  }

  /** How many errors were recorded: the status writer updates at once for the first few. */
  get errorCount(): number {
    return this.runtimeErrors + (this.critical ? 1 : 0);
  }

  get lastErrors(): readonly string[] {
    return this.errors;
  }

  get state(): 'ready' | 'critical' | 'failing' {
    return this.critical ? 'critical' : this.runtimeErrors ? 'failing' : 'ready';
  }

  status(generation: number | undefined): ControllerStatus {
    const base = { type: 'Ready', ...(generation !== undefined ? { observedGeneration: generation } : {}) };
    const ready =
      this.state === 'critical'
        ? {
            ...base,
            status: 'False' as const,
            reason: 'NotReady',
            message: 'Controller failed to start due to a critcal error',
          }
        : this.state === 'failing'
          ? {
              ...base,
              status: 'Unknown' as const,
              reason: 'ReconciliationFailed',
              message: 'Controller seems functional but there were reconciliation errors',
            }
          : { ...base, status: 'True' as const, reason: 'Ready', message: 'Controller is up and running' };
    this.conditions = setCondition(this.conditions, ready);
    return {
      name: this.name,
      conditions: this.conditions,
      ...(this.errors.length ? { lastErrors: [...this.errors] } : {}),
    };
  }

  private push(s: string): void {
    this.errors.push(shortenError(s));
    if (this.errors.length > RING) this.errors.shift();
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
