/**
 * SetDefaults_Container's imagePullPolicy (pkg/apis/core/v1/defaults.go): Always when the image's
 * tag is `latest`, IfNotPresent otherwise. The tag is what parsers.ParseImageName finds
 * (pkg/util/parsers): `latest` when the reference has neither tag nor digest, none (so
 * IfNotPresent) when it has only a digest or does not parse at all.
 */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

// The docker reference grammar (github.com/distribution/reference), as far as telling the tag goes.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(
  `^(?:(${DOMAIN})/)?(${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`,
);

/** The tag ParseImageName reports: '' for a digest-only or unparsable reference. */
export function imageTag(image: string): string {
  const m = REFERENCE.exec(image);
  if (!m) return '';
  // Only the last path component carries a tag: `localhost:5000/app` has none.
  const [, , , tag, digest] = m;
  if (tag) return tag;
  return digest ? '' : 'latest';
}
