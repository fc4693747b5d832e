import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runFlowops } from '../helpers/cli.js';
import { expectedLines, FIXTURES, INVALID, invalidFixtures } from './expectations.js';

async function validate(...paths: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops(['validate', ...paths]);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

const rel = (abs: string): string => relative(ROOT, abs);

describe.concurrent('flowops validate (a real process)', () => {
  it('passes the seed Flow with exit code 0 and a summary', async () => {
    const r = await validate(rel(join(FIXTURES, 'database-flow.yaml')));
    expect(r).toEqual({ code: 0, stdout: '1 file, 1 Flow, 0 errors\n', stderr: '' });
  });

  it('walks a directory, prints every error as file:line: field: problem sorted by file and line, exits 1', async () => {
    const r = await validate(rel(INVALID));
    const want = invalidFixtures().flatMap((name) => expectedLines(join(INVALID, name), rel(join(INVALID, name))));
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual(want);
    // Two Flows in missing-watch and mixed-documents, four in spec-shape, none in yaml-syntax.
    const flows = 18;
    expect(r.stdout).toBe(`${invalidFixtures().length} files, ${flows} Flows, ${want.length} errors\n`);
  });

  it('reads only *.yaml and *.yml below a directory, skipping hidden folders, and reports a missing path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-validate-'));
    mkdirSync(join(dir, 'nested/deeper'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    copyFileSync(join(FIXTURES, 'database-flow.yaml'), join(dir, 'nested/deeper/db.yml'));
    copyFileSync(join(INVALID, 'unknown-step-type.yaml'), join(dir, '.git/ignored.yaml'));
    writeFileSync(join(dir, 'README.md'), 'kind: Flow\n');
    writeFileSync(join(dir, 'a.yaml'), 'apiVersion: flowops.io/v1\nkind: Flow\nmetadata: {name: a}\nspec: {}\n');
    const missing = join(dir, 'nope.yaml');
    const r = await validate(dir, missing);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${join(dir, 'a.yaml')}:4: spec.watch: required\n${missing}: no such file or directory\n`);
    expect(r.stdout).toBe('2 files, 2 Flows, 2 errors\n');
  });

  it('needs at least one path', async () => {
    const r = await validate();
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("missing required argument 'paths'");
  });
});
