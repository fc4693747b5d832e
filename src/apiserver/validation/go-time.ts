/**
 * metav1.Time and metav1.MicroTime's UnmarshalJSON: time.Parse with RFC3339 (seconds, any fraction)
 * or RFC3339Micro (exactly six fraction digits), and Go's text when it fails.
 */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const RFC3339_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/;

export function goTimeError(text: string, micro: boolean): string | undefined {
  if (text === '') return undefined;
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  if ((micro ? RFC3339_MICRO : RFC3339).test(text)) return undefined;
  const [t, l] = [JSON.stringify(text), JSON.stringify(layout)];
  return `parsing time ${t} as ${l}: cannot parse ${t} as ${JSON.stringify(layout.slice(0, 4))}`;
}
