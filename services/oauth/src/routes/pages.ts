// The server-rendered login and consent pages: plain HTML forms, labelled fields, no scripts.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
label{display:block;margin-top:1rem;font-weight:600}
input,textarea{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem}
[role=alert]{background:#fde7e9;border:1px solid #a4262c;padding:.75rem;margin-top:1rem}
fieldset{margin-top:1.5rem;border:1px solid #ccc}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface LoginPage {
  action: string;
  clientName: string;
  error?: string;
}

export function loginPage(page: LoginPage): string {
  const alert = page.error ? `<p role="alert">${escapeHtml(page.error)}</p>` : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(page.clientName)}</strong></p>
${alert}
<form method="post" action="${escapeHtml(page.action)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(page.action)}">
<fieldset>
<legend>Or sign in with a proof of authentication</legend>
<label for="proof">Proof JWT</label>
<textarea id="proof" name="proof_of_authentication_jwt" rows="4" required></textarea>
<button type="submit">Sign in with proof</button>
</fieldset>
</form>`,
  );
}

export interface ConsentPage {
  action: string;
  clientName: string;
  scopes: string[];
}

export function consentPage(page: ConsentPage): string {
  const scopes = page.scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  return layout(
    'Allow access',
    `<h1>Allow access</h1>
<p><strong>${escapeHtml(page.clientName)}</strong> asks for:</p>
<ul>${scopes || '<li>no scopes beyond sign-in</li>'}</ul>
<form method="post" action="${escapeHtml(page.action)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}
