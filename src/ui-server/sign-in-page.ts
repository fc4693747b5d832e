// The page `flowops up` answers a browser that brought no token: a form that asks for one (GET,
// so it works without script; the token leaves the address at once by a redirect), in both themes.

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** At most this much of a refusal is shown; it is the API server's or ours, one sentence. */
const MAX_REASON = 500;

export function signInPage(reason: string | undefined): string {
  const refused = reason
    ? `<p class="bad" role="alert">This token was not accepted: ${escapeHtml(reason.slice(0, MAX_REASON))}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · FlowOps</title>
<style>
:root { color-scheme: light dark; --bg: #f7f8fa; --panel: #fff; --text: #1b1f24; --muted: #5b6470; --border: #d8dde3; --accent: #0b5cad; --bad: #b42318; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1318; --panel: #161b22; --text: #e6edf3; --muted: #9aa6b2; --border: #2d343d; --accent: #6cb6ff; --bad: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 system-ui, sans-serif; }
main { max-width: 520px; margin: 48px auto; padding: 20px 24px; background: var(--panel); border: 1px solid var(--border); border-radius: 8px; }
h1 { font-size: 20px; margin-top: 0; } .muted { color: var(--muted); } .bad { color: var(--bad); font-weight: 600; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
input { width: 100%; padding: 6px 8px; font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--border); border-radius: 6px; }
button { margin-top: 12px; padding: 6px 14px; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 6px; }
code { overflow-wrap: anywhere; }
</style></head>
<body><main>
<h1>Sign in to FlowOps</h1>
${refused}
<p class="muted">Open the link <code>flowops up</code> printed (<code>…/ui/?token=…</code>) to look as its admin, or paste a Kubernetes token this server accepts: <code>kubectl create token NAME</code> signs you in as that ServiceAccount, and you see what its RBAC lets it read.</p>
<form method="get" action="/ui/">
<label for="token">Bearer token</label>
<input id="token" name="token" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
</main></body></html>
`;
}
