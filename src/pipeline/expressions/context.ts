// The evaluation context of spec §4.2: `$` is the pipeline document, `$$` the element an
// iterator (@map, @filter, @any, @all, @none) is visiting. Clock and randomness are injected.

export interface EvalOptions {
  /** Clock for the `"@now"` string; defaults to the system clock. */
  readonly now?: () => Date;
  /** Uniform [0,1) source for `@rnd`; defaults to Math.random. */
  readonly random?: () => number;
}

export interface Ctx {
  readonly object: unknown;
  readonly subject: unknown;
  readonly hasSubject: boolean;
  readonly now: () => Date;
  readonly random: () => number;
}

const systemNow = (): Date => new Date();

export function rootCtx(object: unknown, opts: EvalOptions = {}): Ctx {
  return {
    object,
    subject: null,
    hasSubject: false,
    now: opts.now ?? systemNow,
    random: opts.random ?? Math.random,
  };
}

export function withSubject(ctx: Ctx, subject: unknown): Ctx {
  return { ...ctx, subject, hasSubject: true };
}
