// The frame of every page: a skip link, the header with home, connection state and theme toggle.
import type { ComponentChildren } from 'preact';
import { useConnection } from '../live.ts';
import { paths } from '../router.ts';
import { useTheme } from '../theme.ts';
import { KeysHelp } from './keys-help.tsx';
import { WhoIsSignedIn } from './who.tsx';

const CONNECTION_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' } as const;

export function Layout({ children }: { children: ComponentChildren }) {
  const [theme, toggle] = useTheme();
  const connection = useConnection();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={paths.overview()}>
          FlowOps
        </a>
        <nav aria-label="Main">
          <a href={paths.overview()}>Overview</a>
        </nav>
        <span class={`connection ${connection}`} role="status" aria-live="polite" data-connection={connection}>
          {CONNECTION_TEXT[connection]}
        </span>
        <WhoIsSignedIn />
        <button
          type="button"
          class="theme"
          onClick={toggle}
          aria-label={`Switch to ${next} theme`}
          aria-pressed={theme === 'dark'}
          title={`Switch to ${next} theme`}
        >
          <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span> Theme: {theme === 'dark' ? 'dark' : 'light'}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="keys muted">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous row, <kbd>Enter</kbd> open, <kbd>g</kbd> overview, <kbd>t</kbd>{' '}
        theme, <kbd>?</kbd> all keys.
      </footer>
      <KeysHelp />
    </>
  );
}
