// What every page shows before its data arrives, when it is gone, or when the read failed.
import type { ComponentChildren } from 'preact';
import type { Loaded } from '../live.ts';
import { SignIn } from './sign-in.tsx';

export function WhenLoaded<T>({
  loaded,
  what,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.state === 'loading')
    return (
      <p class="muted" aria-busy="true">
        Loading {what}…
      </p>
    );
  if (loaded.state === 'missing')
    return (
      <p class="notice" role="status">
        {what} not found. It may have been deleted.
      </p>
    );
  if (loaded.state === 'signIn') return <SignIn />;
  if (loaded.state === 'error')
    return (
      <p class="notice bad" role="alert">
        Could not read {what}: {loaded.message}
      </p>
    );
  return <>{children(loaded.data)}</>;
}
