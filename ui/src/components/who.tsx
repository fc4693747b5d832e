// Who the pages read as, and a way out: on `flowops run` (everyone signs in) and on `flowops up`
// with auth (its admin, or a ServiceAccount that signed in with its token).
import { useEffect, useState } from 'preact/hooks';
import { BASE } from '../router.ts';

interface Session {
  user: string;
  /** False on a loopback `up` without auth: nobody signs in, so nobody signs out. */
  signInNeeded: boolean;
}

export function WhoIsSignedIn() {
  const [session, setSession] = useState<Session | undefined>();
  useEffect(() => {
    void fetch(`${BASE}api/session`, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? (r.json() as Promise<Session>) : undefined))
      .then(setSession, () => undefined);
  }, []);
  if (!session?.signInNeeded) return null;
  const signOut = async (): Promise<void> => {
    // A JSON body: the server refuses a sign-out a cross-site form could send.
    await fetch(`${BASE}api/session`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
    location.assign(BASE);
  };
  return (
    <span class="who">
      <span class="muted">Signed in as</span>{' '}
      <strong data-signed-in-as title={session.user}>
        {session.user}
      </strong>
      <button type="button" class="small" onClick={() => void signOut()}>
        Sign out
      </button>
    </span>
  );
}
