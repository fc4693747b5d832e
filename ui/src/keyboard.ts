// Keyboard navigation beyond Tab: j/k (or ↓/↑ on a row link) move between the rows' links of the
// page's tables, g goes to the overview, t toggles the theme, / focuses the page's search, ? lists the keys. Keys typed into
// fields, and every key while a dialog is open (it has its own: Tab, Enter, Escape), are left alone.
import { navigate, paths } from './router.ts';

const rowLinks = (): HTMLAnchorElement[] => [...document.querySelectorAll<HTMLAnchorElement>('main a[data-row]')];

export function installKeyboard(): void {
  addEventListener('keydown', (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable]')) return;
    if (document.querySelector('dialog[open]')) return;
    const onRow = target instanceof HTMLAnchorElement && target.dataset.row !== undefined;
    const forward = e.key === 'j' || (onRow && e.key === 'ArrowDown');
    const back = e.key === 'k' || (onRow && e.key === 'ArrowUp');
    if (forward || back) {
      const links = rowLinks();
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next =
        at < 0 ? (forward ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + (forward ? 1 : -1)));
      links[next]!.focus();
      e.preventDefault();
    } else if (e.key === 'g') {
      navigate(paths.overview());
    } else if (e.key === 't') {
      document.querySelector<HTMLButtonElement>('button.theme')?.click();
    } else if (e.key === '/') {
      const search = document.querySelector<HTMLInputElement>('main input[data-search]');
      if (search) {
        search.focus();
        e.preventDefault();
      }
    } else if (e.key === '?') {
      document.querySelector<HTMLDialogElement>('dialog#keys-help')?.showModal();
      e.preventDefault();
    }
  });
}
