import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllowedSigners } from '../../src/source/verify/allowed-signers.js';
import { verifySsh } from '../../src/source/verify/ssh-verify.js';

/** FlowOps' SSHSIG check against signatures the real `ssh-keygen -Y sign` makes, for each key type. */
describe('SSH signatures (SSHSIG) made by ssh-keygen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-sshsig-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const message = Buffer.from('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nsigned payload\n');
  writeFileSync(join(dir, 'msg'), message);

  function signWith(type: string, bits: string[] = []): { line: string; sig: string } {
    const key = join(dir, `k-${type}-${bits.join('')}`);
    execFileSync('ssh-keygen', ['-q', '-t', type, ...bits, '-N', '', '-C', `${type}@example.com`, '-f', key]);
    execFileSync('ssh-keygen', ['-q', '-Y', 'sign', '-n', 'git', '-f', key, join(dir, 'msg')]);
    const sig = readFileSync(join(dir, 'msg.sig'), 'utf8');
    rmSync(join(dir, 'msg.sig'));
    const [kt, b64] = readFileSync(`${key}.pub`, 'utf8').split(' ');
    return { line: `${type}@example.com ${kt} ${b64}`, sig };
  }

  for (const [type, bits] of [
    ['ed25519', []],
    ['ecdsa', ['-b', '256']],
    ['ecdsa', ['-b', '384']],
    ['ecdsa', ['-b', '521']],
    ['rsa', ['-b', '2048']],
  ] as const) {
    it(`verifies ${type} ${bits.join(' ')} and refuses a changed message`, () => {
      const { line, sig } = signWith(type, [...bits]);
      const { signers, errors } = parseAllowedSigners(line);
      expect(errors).toEqual([]);
      expect(verifySsh(message, sig, signers, undefined)).toMatchObject({
        ok: true,
        signer: expect.stringMatching(/^SSH key SHA256:\S+ \(.+@example\.com\)$/),
      });
      const changed = Buffer.from(message.toString().replace('signed', 'Signed'));
      expect(verifySsh(changed, sig, signers, undefined)).toMatchObject({ ok: false, code: 'BadSignature' });
    });
  }

  it('refuses a key not listed, a line for another namespace, and outside valid-before', () => {
    const { line, sig } = signWith('ed25519', ['-a', '16']);
    const other = signWith('ed25519', ['-a', '17']);
    const [principal, ...rest] = line.split(' ');
    expect(verifySsh(message, sig, parseAllowedSigners(other.line).signers, undefined)).toMatchObject({
      ok: false,
      code: 'UntrustedSigner',
      signer: expect.stringMatching(/^SSH key SHA256:/),
    });
    expect(
      verifySsh(
        message,
        sig,
        parseAllowedSigners(`${principal} namespaces="file,email" ${rest.join(' ')}`).signers,
        undefined,
      ),
    ).toMatchObject({ ok: false, code: 'ExpiredKey' });
    const until = parseAllowedSigners(`${principal} valid-before="20200101Z",namespaces="git" ${rest.join(' ')}`);
    expect(until.errors).toEqual([]);
    expect(verifySsh(message, sig, until.signers, Date.UTC(2021, 0, 1) / 1000)).toMatchObject({
      ok: false,
      code: 'ExpiredKey',
    });
    expect(verifySsh(message, sig, until.signers, Date.UTC(2019, 0, 1) / 1000)).toMatchObject({ ok: true });
  });

  it('names the line and the problem for a malformed allowed_signers file, without the key', () => {
    const { errors } = parseAllowedSigners(
      '# comment\n\nalice@example.com ssh-ed25519 AAAAnotakey\n' +
        'bob@example.com cert-authority ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOv\njust-one-token\n',
    );
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^line 3: /);
    expect(errors[1]).toMatch(/^line 4: /);
    expect(errors[2]).toBe('line 5: expected "principals [options] keytype base64-key"');
    expect(errors.join('\n')).not.toContain('AAAA');
  });
});
