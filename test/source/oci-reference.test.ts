import { describe, expect, it } from 'vitest';
import { flowSourceSpecSchema } from '../../src/api/flowsource.js';
import { credentialsFor } from '../../src/source/oci/docker-config.js';
import { newestInRange } from '../../src/source/oci/pull.js';
import { parseOciUrl } from '../../src/source/oci/reference.js';
import { parseChallenge } from '../../src/source/oci/registry-client.js';
import { sourceSummary } from '../../src/ui-server/summaries.js';

const D = `sha256:${'a'.repeat(64)}`;

describe('OCI references, docker config credentials, challenges, semver tags and the spec', () => {
  it('parses oci:// URLs with a port, a nested repository, a tag and a digest', () => {
    expect(parseOciUrl('oci://127.0.0.1:5000/team/flows:v1.2.0', 'url')).toEqual({
      registry: '127.0.0.1:5000',
      repository: 'team/flows',
      tag: 'v1.2.0',
      digest: undefined,
    });
    expect(parseOciUrl(`oci://ghcr.io/o/r@${D}`, 'url')).toMatchObject({
      repository: 'o/r',
      digest: D,
      tag: undefined,
    });
    expect(() => parseOciUrl('https://ghcr.io/o/r', 'spec.oci.url')).toThrow(
      /spec.oci.url: "https:\/\/ghcr.io\/o\/r" is not an oci:\/\/ URL/,
    );
    expect(() => parseOciUrl('oci://ghcr.io/O/R:x', 'url')).toThrow(/invalid repository "O\/R"/);
    expect(() => parseOciUrl('oci://ghcr.io/o/r@sha256:12', 'url')).toThrow(/digest that is not sha256/);
  });

  it("reads auths entries by host, in both of docker's forms; errors never quote the secret", () => {
    const config = JSON.stringify({
      auths: {
        'https://127.0.0.1:5000/v1/': { auth: Buffer.from('alice:s3cr3t:x').toString('base64') },
        'ghcr.io': { username: 'bob', password: 'tok' },
      },
    });
    expect(credentialsFor(config, '127.0.0.1:5000', 'f')).toEqual({ username: 'alice', password: 's3cr3t:x' });
    expect(credentialsFor(config, 'ghcr.io', 'f')).toEqual({ username: 'bob', password: 'tok' });
    expect(credentialsFor(config, 'quay.io', 'f')).toBeUndefined();
    const bad = JSON.stringify({ auths: { 'r.io': { auth: Buffer.from('nocolon-s3cr3t').toString('base64') } } });
    expect(() => credentialsFor(bad, 'r.io', 'Secret ns/x')).toThrow(
      /Secret ns\/x: the auth of r.io is not base64 of user:password/,
    );
    try {
      credentialsFor(bad, 'r.io', 'Secret ns/x');
    } catch (e) {
      expect(String(e)).not.toContain('s3cr3t');
    }
  });

  it('parses Bearer and Basic challenges', () => {
    expect(parseChallenge('Bearer realm="https://auth.io/token",service="reg",scope="repository:o/r:pull"')).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.io/token', service: 'reg', scope: 'repository:o/r:pull' },
    });
    expect(parseChallenge('Basic realm="Registry Realm"').scheme).toBe('basic');
  });

  it('picks the newest tag in a semver range, ignoring tags that are not versions', () => {
    expect(newestInRange(['v1.0.0', 'v1.2.0', '1.10.1', 'latest', 'v2.0.0'], '>=1.0.0 <2.0.0')).toBe('1.10.1');
    expect(newestInRange(['latest'], '1.x')).toBeUndefined();
  });

  it('a FlowSource takes url or oci, exactly one; OCI refs are validated', () => {
    expect(flowSourceSpecSchema.safeParse({ oci: { url: 'oci://r.io/o/flows', ref: { semver: '1.x' } } }).success).toBe(
      true,
    );
    const both = flowSourceSpecSchema.safeParse({ url: 'https://g/x.git', oci: { url: 'oci://r.io/o/flows' } });
    expect(both.error?.issues[0]?.message).toContain('exactly one');
    expect(flowSourceSpecSchema.safeParse({}).success).toBe(false);
    const tagged = flowSourceSpecSchema.safeParse({ oci: { url: 'oci://r.io/o/flows:v1' } });
    expect(tagged.error?.issues[0]?.message).toContain('no tag: the tag goes in ref');
    const badDigest = flowSourceSpecSchema.safeParse({
      oci: { url: 'oci://r.io/o/flows', ref: { digest: 'sha256:1' } },
    });
    expect(badDigest.error?.issues[0]?.path).toEqual(['oci', 'ref', 'digest']);
    const gitRef = flowSourceSpecSchema.safeParse({ oci: { url: 'oci://r.io/o/flows' }, ref: { branch: 'main' } });
    expect(gitRef.error?.issues[0]?.message).toContain('spec.oci.ref');
  });

  it("the web view's sources table names an OCI source by its repository and ref", () => {
    const obj = (ref: Record<string, string>) => ({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      metadata: { name: 'a', namespace: 'n' },
      spec: { oci: { url: 'oci://r.io/o/flows', ref } },
    });
    expect(sourceSummary(obj({ semver: '1.x' }))).toMatchObject({
      url: 'oci://r.io/o/flows',
      ref: 'semver 1.x',
      pinned: false,
    });
    expect(sourceSummary(obj({ digest: D }))).toMatchObject({ ref: `pinned sha256:${'a'.repeat(12)}`, pinned: true });
    expect(sourceSummary(obj({})).ref).toBe('tag latest');
  });
});
