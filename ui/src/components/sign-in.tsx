// `flowops run`'s web view reads as the person looking: they paste a Kubernetes bearer token once
// (`kubectl create token NAME`, or their own), the server checks it with the API server and keeps
// it behind an HttpOnly cookie; the page never stores it.
import { useState } from 'preact/hooks';
import { BASE } from '../router.ts';

export function SignIn() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch(`${BASE}api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (res.ok) return location.reload();
      setError(((await res.json().catch(() => ({}))) as { error?: string }).error ?? res.statusText);
    } catch (err) {
      setError(String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="sign-in" onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in</h2>
      <p class="muted">
        Everything here is read, and every action made, with your own Kubernetes token: you see what{' '}
        <code>kubectl get</code> shows you. Get one with <code>kubectl create token NAME</code>.
      </p>
      <label for="token">Bearer token</label>
      <input
        id="token"
        name="token"
        type="password"
        autocomplete="off"
        required
        value={token}
        onInput={(e) => setToken((e.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={busy || !token}>
        Sign in
      </button>
      {error ? (
        <p class="notice bad" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
