/**
 * Splits a raw Git commit or tag object into what was signed and the signature, byte for byte as
 * git does (commit.c `parse_buffer_signed_by_header`, tag.c `parse_signature`): a commit's
 * signature is its `gpgsig` header (continuation lines start with a space) and the payload is the
 * object without that header; a tag's signature is appended to its message and the payload is
 * everything before it. Bytes are kept as latin1 so that non-UTF-8 messages survive unchanged.
 */

export interface SignedObject {
  /** The exact bytes the signer signed. */
  payload: Uint8Array;
  /** The armored signature, or undefined when the object carries none. */
  signature: string | undefined;
  /** Committer (commit) or tagger (tag) time in seconds since the epoch, for allowed-signers validity. */
  time: number | undefined;
}

// sha256 repositories add gpgsig-sha256; either is dropped from the payload as git drops both.
const SIGNATURE_HEADERS = ['gpgsig', 'gpgsig-sha256'];
const TAG_SIGNATURE_STARTS = ['-----BEGIN PGP SIGNATURE-----', '-----BEGIN SSH SIGNATURE-----'];

export function splitCommit(raw: Uint8Array): SignedObject {
  const text = Buffer.from(raw).toString('latin1');
  const headerEnd = text.indexOf('\n\n');
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd + 1);
  const lines = header.split('\n');
  const kept: string[] = [];
  let signature: string[] | undefined;
  let inSignature = false;
  for (const line of lines.slice(0, -1)) {
    if (inSignature && line.startsWith(' ')) {
      signature?.push(line.slice(1));
      continue;
    }
    inSignature = false;
    const name = line.slice(0, line.indexOf(' '));
    if (SIGNATURE_HEADERS.includes(name)) {
      inSignature = true;
      // Only the sha1 signature is verified: FlowOps reads sha1 repositories.
      if (name === 'gpgsig') signature = [line.slice(name.length + 1)];
      continue;
    }
    kept.push(line);
  }
  const payload = `${kept.join('\n')}\n${headerEnd < 0 ? '' : text.slice(headerEnd + 1)}`;
  return { payload: Buffer.from(payload, 'latin1'), signature: signature?.join('\n'), time: timeOf(kept, 'committer') };
}

export function splitTag(raw: Uint8Array): SignedObject {
  const text = Buffer.from(raw).toString('latin1');
  const headerEnd = text.indexOf('\n\n');
  const time = timeOf(text.slice(0, headerEnd < 0 ? text.length : headerEnd).split('\n'), 'tagger');
  let start = -1;
  for (const marker of TAG_SIGNATURE_STARTS) {
    const at = text.lastIndexOf(`\n${marker}`);
    if (at > start && at >= headerEnd) start = at + 1;
  }
  if (start < 0) return { payload: raw, signature: undefined, time };
  return { payload: Buffer.from(text.slice(0, start), 'latin1'), signature: text.slice(start), time };
}

function timeOf(headerLines: string[], field: string): number | undefined {
  const line = headerLines.find((l) => l.startsWith(`${field} `));
  const m = line ? /> (\d+) [+-]\d{4}$/.exec(line) : null;
  return m ? Number(m[1]) : undefined;
}
