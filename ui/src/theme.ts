// Dark and light themes: the system's choice (prefers-color-scheme) until the user picks one with
// the toggle; the pick is remembered in localStorage.
import { useEffect, useState } from 'preact/hooks';

export type Theme = 'light' | 'dark';
const KEY = 'flowops-theme';

const systemTheme = (): Theme => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
const storedTheme = (): Theme | undefined => {
  const t = localStorage.getItem(KEY);
  return t === 'light' || t === 'dark' ? t : undefined;
};

/** Before the first render, so the page never shows the other theme first. */
export function applyInitialTheme(): void {
  document.documentElement.dataset.theme = storedTheme() ?? systemTheme();
}

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(() => storedTheme() ?? systemTheme());
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const follow = (): void => {
      if (!storedTheme()) setTheme(systemTheme());
    };
    mq.addEventListener('change', follow);
    return () => mq.removeEventListener('change', follow);
  }, []);
  const toggle = (): void => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(KEY, next);
    setTheme(next);
  };
  return [theme, toggle];
}
