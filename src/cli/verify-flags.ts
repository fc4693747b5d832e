import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { ALLOWED_SIGNERS_KEY, trustedKeysFromSecretData } from '../source/verify/trusted-keys.js';
import { SetupError } from '../util/setup-error.js';

export interface VerifyFlags {
  verifyKeys: string[];
  verifyMode: 'head' | 'all';
}

/** What `flowops up` passes to its embedded repository's FlowSource: the trusted keys Secret's data and the mode. */
export interface EmbeddedVerify {
  secretData: Record<string, string>;
  mode: 'head' | 'all';
}

/**
 * `flowops up --verify-keys FILE`: the embedded repository's FlowSource then applies only commits
 * signed by these keys (spec.verify). A file is an armored OpenPGP public key (gpg --armor
 * --export) or SSH allowed-signers lines (git's gpg.ssh.allowedSignersFile); repeat for more.
 */
export function addVerifyFlags(cmd: Command): Command {
  return cmd
    .option(
      '--verify-keys <file>',
      'require commits of the embedded repository to be signed by these keys: ' +
        'an armored OpenPGP public key or an SSH allowed_signers file (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .addOption(
      new Option(
        '--verify-mode <mode>',
        'with --verify-keys: head checks the commit applied, all every commit since the last verified one',
      )
        .choices(['head', 'all'])
        .default('head'),
    );
}

/** Reads and checks the files at start-up: a wrong file stops `up` with its name rather than refusing every push. */
export async function embeddedVerifyOf(flags: VerifyFlags): Promise<EmbeddedVerify | undefined> {
  if (!flags.verifyKeys.length) return undefined;
  const secretData: Record<string, string> = {};
  const signers: string[] = [];
  for (const [i, file] of flags.verifyKeys.entries()) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new SetupError(`--verify-keys ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----'))
      secretData[
        `${i}-${basename(file)
          .replace(/[^-._a-zA-Z0-9]/g, '_')
          .replace(/\.asc$/, '')}.asc`
      ] = b64(text);
    else signers.push(text.trimEnd());
    const alone: Record<string, string> = text.includes('-----BEGIN PGP')
      ? { 'key.asc': b64(text) }
      : { [ALLOWED_SIGNERS_KEY]: b64(text) };
    const checked = await trustedKeysFromSecretData(alone);
    if (!checked.ok)
      throw new SetupError(
        `--verify-keys ${file}: ${checked.problems.join('; ').replace(/^(key\.asc|allowed_signers):? /, '')}`,
      );
  }
  if (signers.length) secretData[ALLOWED_SIGNERS_KEY] = b64(`${signers.join('\n')}\n`);
  return { secretData, mode: flags.verifyMode };
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
