// kube-apiserver's validateValidatingWebhookConfiguration and validateMutatingWebhookConfiguration with
// their Update variants (kubernetes/kubernetes pkg/apis/admissionregistration/validation/validation.go:
// validateValidatingWebhook, validateMutatingWebhook), and the clientConfig checks of
// k8s.io/apiserver pkg/util/webhook/validation.go (ValidateWebhookURL, ValidateWebhookService). An update
// keeps what the stored object already had (side effects, unrecognised review versions, duplicate names),
// as upstream's options from the old object do. v1's defaults are applied before (admission/config-storage.ts).
import type { JsonObject, JsonValue } from '../registry/types.js';
import { duplicate, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str, subdomainErrors } from './checks.js';
import { labelSelectorCauses } from './label-selector.js';
import {
  FAILURE_POLICIES,
  MATCH_POLICIES,
  maps,
  matchConditionsCauses,
  reviewVersionsCauses,
  ruleWithOperationsCauses,
  strings,
} from './admission-rules.js';

const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION = ['IfNeeded', 'Never'];
const FORM = '; desired format: https://host[/path]';

interface Options {
  requireNoSideEffects: boolean;
  requireKnownReviewVersion: boolean;
  requireUniqueNames: boolean;
}

const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

/** IsFullyQualifiedName. */
function fullyQualifiedCauses(name: string, path: string): FieldCause[] {
  if (!name) return [required(path)];
  const errs = subdomainErrors(name);
  if (errs.length) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) {
    return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  }
  return [];
}

/** ValidateWebhookURL with https forced, over a parse close to Go's url.Parse. */
function urlCauses(url: string, path: string): FieldCause[] {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(url);
  if (!m) return [required(path, `url must be a valid URL${FORM}`)];
  const [, scheme = '', authority = '', , query = '', fragment = ''] = m;
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : authority.slice(at + 1);
  const causes: FieldCause[] = [];
  if (scheme.toLowerCase() !== 'https') {
    causes.push(invalid(path, scheme.toLowerCase(), `'https' is the only allowed URL scheme${FORM}`));
  }
  if (!host) causes.push(invalid(path, host, `host must be specified${FORM}`));
  if (at >= 0) causes.push(invalid(path, authority.slice(0, at), 'user information is not permitted in the URL'));
  if (fragment) causes.push(invalid(path, fragment, 'fragments are not permitted in the URL'));
  if (query) causes.push(invalid(path, query, 'query parameters are not permitted in the URL'));
  return causes;
}

function serviceCauses(s: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  // Upstream passes (name, namespace) to ValidateWebhookService(fldPath, namespace, name, …): each
  // missing value is reported at the other's field, as kube-apiserver 1.34 does.
  if (!str(s.namespace)) causes.push(required(`${path}.name`));
  if (!str(s.name)) causes.push(required(`${path}.namespace`));
  const port = typeof s.port === 'number' ? s.port : 443;
  if (port < 1 || port > 65535) {
    causes.push(invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (!isSet(s.path)) return causes;
  const p = str(s.path);
  if (p === '/' || p === '') return causes;
  if (p === '//') return [...causes, invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) causes.push(invalid(`${path}.path`, p, "must start with a '/'"));
  let rest = p.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (!step) {
      causes.push(invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
      return;
    }
    for (const e of subdomainErrors(step)) causes.push(invalid(`${path}.path`, p, `segment[${i}]: ${e}`));
  });
  return causes;
}

function webhookCauses(hook: JsonObject, mutating: boolean, o: Options, path: string): FieldCause[] {
  const causes = fullyQualifiedCauses(str(hook.name), `${path}.name`);
  for (const [i, r] of maps(hook.rules).entries()) causes.push(...ruleWithOperationsCauses(r, `${path}.rules[${i}]`));
  if (isSet(hook.failurePolicy) && !FAILURE_POLICIES.includes(str(hook.failurePolicy))) {
    causes.push(notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  }
  if (isSet(hook.matchPolicy) && !MATCH_POLICIES.includes(str(hook.matchPolicy))) {
    causes.push(notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  }
  const allowed = o.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (!isSet(hook.sideEffects)) {
    causes.push(required(`${path}.sideEffects`, `must specify one of ${allowed.join(', ')}`));
  } else if (!allowed.includes(str(hook.sideEffects))) {
    causes.push(notSupported(`${path}.sideEffects`, hook.sideEffects, allowed));
  }
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) {
    causes.push(invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (isSet(hook[key])) causes.push(...labelSelectorCauses(hook[key], `${path}.${key}`));
  }
  if (mutating && isSet(hook.reinvocationPolicy) && !REINVOCATION.includes(str(hook.reinvocationPolicy))) {
    causes.push(notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION));
  }
  const cc = typeof hook.clientConfig === 'object' && hook.clientConfig !== null ? hook.clientConfig : {};
  const cfg = Array.isArray(cc) ? {} : cc;
  const hasUrl = isSet(cfg.url);
  const service = cfg.service;
  const hasService = typeof service === 'object' && service !== null && !Array.isArray(service);
  if (hasUrl === hasService) {
    causes.push(required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  } else if (hasUrl) causes.push(...urlCauses(str(cfg.url), `${path}.clientConfig.url`));
  else if (hasService) causes.push(...serviceCauses(service, `${path}.clientConfig.service`));
  causes.push(...matchConditionsCauses(hook.matchConditions, `${path}.matchConditions`));
  return causes;
}

/** The options of an update, from what the stored object already had (...HasNoSideEffects and the like). */
function optionsFrom(old: JsonObject | undefined): Options {
  if (!old) return { requireNoSideEffects: true, requireKnownReviewVersion: true, requireUniqueNames: true };
  const hooks = maps(old.webhooks);
  const names = hooks.map((h) => str(h.name));
  return {
    requireNoSideEffects: hooks.every((h) => NO_SIDE_EFFECTS.includes(str(h.sideEffects))),
    requireKnownReviewVersion: hooks.every((h) =>
      strings(h.admissionReviewVersions).some((v) => v === 'v1' || v === 'v1beta1'),
    ),
    requireUniqueNames: new Set(names.filter(Boolean)).size === names.filter(Boolean).length,
  };
}

export function webhookConfigurationCauses(
  obj: JsonObject,
  old: JsonObject | undefined,
  mutating: boolean,
): FieldCause[] {
  const o = optionsFrom(old);
  const causes: FieldCause[] = [];
  const names = new Set<string>();
  maps(obj.webhooks).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    causes.push(...webhookCauses(hook, mutating, o, path));
    const versions = `${path}.admissionReviewVersions`;
    causes.push(...reviewVersionsCauses(hook.admissionReviewVersions, o.requireKnownReviewVersion, versions));
    const name = str(hook.name);
    if (o.requireUniqueNames && name) {
      if (names.has(name)) causes.push(duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return causes;
}
