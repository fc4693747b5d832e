import { describe, expect, it } from 'vitest';
import { compressIndexes } from '../../src/simulator/job-controller.js';
import { mergePatchFrom } from '../../src/simulator/json.js';
import { PodIpAllocator } from '../../src/simulator/pod-ips.js';
import { normalizeImage } from '../../src/simulator/pod-status.js';
import { podTemplateHash } from '../../src/simulator/template-hash.js';

describe('simulator building blocks', () => {
  it('a merge patch holds only what differs; with prune, what went is nulled at any depth', () => {
    const current = { replicas: 3, readyReplicas: 3, loadBalancer: { ingress: [{ ip: '127.0.0.1' }] } };
    expect(
      mergePatchFrom(
        current,
        { replicas: 3, readyReplicas: 3, loadBalancer: { ingress: [{ ip: '127.0.0.1' }] } },
        true,
      ),
    ).toBeUndefined();
    expect(mergePatchFrom(current, { replicas: 1, loadBalancer: {} }, true)).toEqual({
      replicas: 1,
      readyReplicas: null,
      loadBalancer: { ingress: null },
    });
    expect(mergePatchFrom(current, { replicas: 1 }, false)).toEqual({ replicas: 1 });
    // A null removes a member, once: when it is already absent nothing is sent.
    expect(mergePatchFrom({ subsets: [{}] }, { subsets: null }, false)).toEqual({ subsets: null });
    expect(mergePatchFrom({}, { subsets: null }, false)).toBeUndefined();
  });

  it('images are reported as the container runtime normalises them', () => {
    expect(normalizeImage('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('bitnami/redis:7')).toBe('docker.io/bitnami/redis:7');
    expect(normalizeImage('ghcr.io/org/app')).toBe('ghcr.io/org/app:latest');
    expect(normalizeImage('localhost:5000/app@sha256:abc')).toBe('localhost:5000/app@sha256:abc');
  });

  it('pod-template-hash is stable, key-order blind, and safe-alphabet encoded', () => {
    const a = podTemplateHash({
      metadata: { labels: { app: 'web', tier: 'x' } },
      spec: { containers: [{ name: 'n', image: 'nginx' }] },
    });
    const b = podTemplateHash({
      spec: { containers: [{ image: 'nginx', name: 'n' }] },
      metadata: { labels: { tier: 'x', app: 'web' } },
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(podTemplateHash({ spec: { containers: [{ name: 'n', image: 'nginx:1.27' }] } })).not.toBe(a);
  });

  it('completed indexes are written as ranges', () => {
    expect(compressIndexes(new Set([4, 0, 1, 2, 7, 8]))).toBe('0-2,4,7-8');
    expect(compressIndexes(new Set([3]))).toBe('3');
  });

  it('pod IPs come from 10.244.0.0/16, one per pod, reused only after release', () => {
    const ips = new PodIpAllocator();
    ips.reserve('old', '10.244.0.2');
    const first = ips.ipFor('a');
    expect(first).toBe('10.244.0.3');
    expect(ips.ipFor('a')).toBe(first);
    expect(ips.ipFor('b')).toBe('10.244.0.4');
    ips.release('old');
    expect(new Set([ips.ipFor('c'), ips.ipFor('d')]).size).toBe(2);
  });
});
