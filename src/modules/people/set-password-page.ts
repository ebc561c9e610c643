/**
 * The page invitation and reset links open: reads the token from the fragment, asks for a password (and
 * an e-mail for the first admin, who has none), posts to the matching `/auth/*` route and, signed in,
 * says so. No framework: a form and a few lines of script.
 */
export const SET_PASSWORD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Choose your password</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0}input{width:100%;padding:.4rem}</style>
</head><body>
<h1>Choose your password</h1>
<form id="f">
<label id="emailRow" hidden>E-mail <input id="email" type="email" autocomplete="email"></label>
<label>Password (at least 10 characters) <input id="password" type="password" minlength="10" required autocomplete="new-password"></label>
<button>Save</button>
</form>
<p id="msg" role="status"></p>
<script>
const [kind, token] = location.hash.slice(1).split('=');
history.replaceState(null, '', location.pathname);
const msg = document.getElementById('msg');
if (!token || (kind !== 'invite' && kind !== 'reset')) msg.textContent = 'This link is incomplete.';
if (kind === 'invite') document.getElementById('emailRow').hidden = false;
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = { token, password: document.getElementById('password').value };
  const email = document.getElementById('email').value;
  if (kind === 'invite' && email) body.email = email;
  const res = await fetch(kind === 'invite' ? '/auth/invitations/accept' : '/auth/password-reset/confirm', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin',
  });
  const out = await res.json().catch(() => ({}));
  msg.textContent = res.ok ? 'Done: you are signed in as ' + out.user.email + '.' : (out.error || 'Something went wrong.');
});
</script>
</body></html>
`;
