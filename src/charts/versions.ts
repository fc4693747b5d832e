import semver from 'semver';

/**
 * A chart version constraint, as Helm's `--version`, Flux's HelmChart `version` and Argo CD's
 * `targetRevision` take it: an exact version ("1.4.2") or a semver range ("^1.4", ">=1.0 <2",
 * Masterminds' ">= 1.0, < 2" with its commas for AND). Leading "v" is accepted. Pre-releases match
 * only a range that names one, as in Helm.
 *
 * node-semver alone is too forgiving here: it reads ">=1.0 <<2" as ">=1.0.0" and ">= 1.0, < 2"
 * as "<2.0.0", silently widening the range; so every comparator is checked before it is used.
 */
const PART = '(?:0|[1-9]\\d*|[xX*])';
const COMPARATOR = new RegExp(
  `^(?:[<>]=?|=|~>?|\\^)?v?${PART}(?:\\.${PART}){0,2}(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$`,
);

/** The constraint in node-semver's syntax, or undefined when it is not a version or range. */
export function normalizeConstraint(text: string): string | undefined {
  const alternatives = text.split('||').map((alt) =>
    alt
      .replace(/,/g, ' ')
      .replace(/([<>=~^]+)\s+/g, '$1')
      .trim(),
  );
  for (const alt of alternatives) {
    if (!alt) return undefined;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(alt);
    const tokens = hyphen ? [hyphen[1] ?? '', hyphen[2] ?? ''] : alt.split(/\s+/);
    if (!tokens.every((t) => COMPARATOR.test(t))) return undefined;
  }
  const range = alternatives.join(' || ');
  return semver.validRange(range, { loose: true }) === null ? undefined : range;
}

export function isVersionConstraint(text: string): boolean {
  return normalizeConstraint(text) !== undefined;
}

/** The highest of `versions` that the constraint admits; undefined when none does (or it is no constraint). */
export function highestMatch(versions: readonly string[], constraint: string): string | undefined {
  const range = normalizeConstraint(constraint);
  if (range === undefined) return undefined;
  let best: string | undefined;
  for (const v of versions) {
    if (!semver.valid(v, { loose: true }) || !semver.satisfies(v, range, { loose: true })) continue;
    if (best === undefined || semver.gt(v, best, { loose: true })) best = v;
  }
  return best;
}
