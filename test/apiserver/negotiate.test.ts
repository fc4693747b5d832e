import { describe, expect, it } from 'vitest';
import { answerFormat } from '../../src/apiserver/http/negotiate.js';
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import type { ResourceType } from '../../src/apiserver/registry/types.js';

/** What answer format kube-apiserver's negotiation picks for the Accept headers clients send. */

const pods = BUILTIN_TYPES.find((t) => t.kind === 'Pod')!;
const widgets: ResourceType = { ...pods, group: 'example.com', kind: 'Widget', plural: 'widgets', custom: true };
const PB = 'application/vnd.kubernetes.protobuf';

describe('answerFormat', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    [`${PB}, */*`, 'protobuf'],
    [`${PB},application/json`, 'protobuf'],
    [`application/json;q=0.5, ${PB}`, 'protobuf'],
    [`${PB};q=0.1, application/json`, 'json'],
    [`${PB};as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1`, 'json'],
    [`${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`, 'protobuf'],
    ['text/html', undefined],
    [`${PB};as=Table;g=meta.k8s.io;v=v1`, undefined],
  ])('built-in kind, Accept %j: %s', (accept, want) => {
    expect(answerFormat(accept, pods)).toBe(want);
  });

  it.each([
    [`${PB}, application/json`, 'json'],
    [PB, undefined],
    [`${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`, 'protobuf'],
  ])('custom resource, Accept %j: %s', (accept, want) => {
    expect(answerFormat(accept, widgets)).toBe(want);
  });
});
