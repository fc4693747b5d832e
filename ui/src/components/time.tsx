// A timestamp as "3 min ago", with the exact time on hover and for screen readers.
export function Ago({ iso }: { iso: string | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  const text =
    seconds < 60
      ? `${seconds}s ago`
      : seconds < 3600
        ? `${Math.round(seconds / 60)} min ago`
        : seconds < 86400
          ? `${Math.round(seconds / 3600)} h ago`
          : `${Math.round(seconds / 86400)} d ago`;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}

export const shortSha = (sha: string | undefined): string => (sha ? sha.slice(0, 8) : '');
