import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffCommits } from '../../src/source/diff.js';
import { gitContext } from '../../src/source/git-context.js';
import { git } from '../helpers/git-server.js';

/** isomorphic-git reads a repository the git CLI made, in place: no server needed to test the diff. */
describe('diffCommits: only differing subtrees are opened', () => {
  let dir: string;
  const commit = (files: Record<string, string | null>): string => {
    for (const [p, c] of Object.entries(files)) {
      const full = join(dir, p);
      if (c === null) rmSync(full, { recursive: true, force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, c);
      }
    }
    git(dir, 'add', '-A');
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c', '--allow-empty');
    return git(dir, 'rev-parse', 'HEAD');
  };
  const cli = (a: string, b: string, path: string): string[] =>
    git(dir, 'diff', '--name-status', '--no-renames', a, b, '--', path)
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [s, f] = l.split('\t');
        return `${s} ${f!.slice(path.length + 1)}`;
      });
  let c1: string;
  let c2: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'flowops-diff-'));
    git(dir, 'init', '-q', '-b', 'main');
    const files: Record<string, string> = {};
    for (let t = 0; t < 10; t++) for (let i = 0; i < 20; i++) files[`flows/team-${t}/f${i}.yaml`] = `n: ${t}-${i}\n`;
    files['flows/chart/Chart.yaml'] = 'name: c\n';
    files['flows/chart/templates/d.yaml'] = '{{ .Values.x }}\n';
    files['other/x.yaml'] = 'x: 1\n';
    c1 = commit(files);
    c2 = commit({
      'flows/team-3/f1.yaml': 'n: changed\n',
      'flows/team-7/new.yml': 'n: new\n',
      'flows/team-9/f0.yaml': null,
      'flows/team-2': null,
      'flows/chart/templates/d.yaml': 'changed\n',
      'other/x.yaml': 'x: 2\n',
      'flows/README.md': 'hi\n',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('matches git diff --name-status inside the path', async () => {
    const changes = await diffCommits({ ctx: gitContext(dir), from: c1, to: c2, path: 'flows' });
    const short = { added: 'A', modified: 'M', deleted: 'D' } as const;
    expect(changes.map((c) => `${short[c.status]} ${c.path}`)).toEqual(cli(c1, c2, 'flows'));
    expect(changes).toHaveLength(25);
  });

  it('marks YAML outside Helm charts and kustomize bases as definitions', async () => {
    const changes = await diffCommits({ ctx: gitContext(dir), from: c1, to: c2, path: 'flows/' });
    const defs = Object.fromEntries(changes.map((c) => [c.path, c.definition]));
    expect(defs['team-3/f1.yaml']).toBe(true);
    expect(defs['team-7/new.yml']).toBe(true);
    expect(defs['chart/templates/d.yaml']).toBe(false);
    expect(defs['README.md']).toBe(false);
  });

  it('lists every file when there is no previous commit, and nothing for equal commits', async () => {
    const all = await diffCommits({ ctx: gitContext(dir), to: c1, path: '.' });
    expect(all).toHaveLength(203);
    expect(all.every((c) => c.status === 'added')).toBe(true);
    expect(await diffCommits({ ctx: gitContext(dir), from: c2, to: c2, path: 'flows' })).toEqual([]);
    expect(await diffCommits({ ctx: gitContext(dir), from: c1, to: c2, path: 'missing' })).toEqual([]);
  });
});
