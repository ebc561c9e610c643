/**
 * The page invitation and reset links open: reads the token from the fragment, asks for a password (and
 * an e-mail for the first admin, who has none), posts to the matching `/auth/*` route and, signed in,
 * says so and leads to the console. No framework: a form and a few lines of script, styled like the
 * console's sign-in card (same colours, light and dark), so it works whether or not the console is built.
 * Its script is exported on its own, so the page's content security policy can name it by its hash.
 */
export const SET_PASSWORD_SCRIPT = `const [kind, token] = location.hash.slice(1).split('=');
history.replaceState(null, '', location.pathname);
const msg = document.getElementById('msg');
const form = document.getElementById('f');
const say = (text, ok) => { msg.textContent = text; msg.className = ok ? 'ok' : 'error'; };
if (!token || (kind !== 'invite' && kind !== 'reset')) { say('This link is incomplete. Open the link from your e-mail again.', false); form.hidden = true; }
if (kind === 'invite') document.getElementById('emailRow').hidden = false;
if (kind === 'reset') document.getElementById('title').textContent = 'Choose a new password';
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = { token, password: document.getElementById('password').value };
  const email = document.getElementById('email').value;
  if (kind === 'invite' && email) body.email = email;
  document.getElementById('save').disabled = true;
  let res, out = {};
  try {
    res = await fetch(kind === 'invite' ? '/auth/invitations/accept' : '/auth/password-reset/confirm', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin',
    });
    out = await res.json().catch(() => ({}));
  } catch { res = null; }
  document.getElementById('save').disabled = false;
  if (res && res.ok) {
    form.hidden = true;
    say('Done: you are signed in as ' + out.user.email + '.', true);
    document.getElementById('next').hidden = false;
    document.querySelector('#next a').focus();
  } else {
    say(res ? (out.error || 'Something went wrong. Try again.') : 'The service cannot be reached. Check your connection and try again.', false);
  }
});
`;

export const SET_PASSWORD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>Choose your password</title>
<style>
:root{--bg:#f7f7f5;--panel:#fff;--text:#1d1d1f;--muted:#55595f;--line:#d9dbde;--accent:#1f5fbf;--accent-text:#fff;--danger:#a4161a;--ok:#1b6e3a;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--text);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#16181b;--panel:#202327;--text:#eceef0;--muted:#aab0b7;--line:#3a3f45;--accent:#7fb0ff;--accent-text:#0b1a33;--danger:#ff8a8a;--ok:#7ddc9c}}
*{box-sizing:border-box}body{margin:0}[hidden]{display:none!important}
main{min-height:100vh;display:grid;place-items:center;padding:1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:1.25rem;width:100%;max-width:26rem}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:flex;flex-direction:column;gap:.25rem;margin-bottom:.85rem;font-weight:600}
input{font:inherit;color:inherit;width:100%;border:1px solid var(--line);border-radius:6px;padding:.45rem .6rem;background:var(--panel);font-weight:400}
small{color:var(--muted);font-size:.85rem;font-weight:400}
button,.button{font:inherit;display:inline-block;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);border-radius:6px;padding:.45rem .9rem;cursor:pointer;text-decoration:none}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
#msg:empty{display:none}#msg.error{color:var(--danger);border-left:3px solid var(--danger);padding:.35rem .6rem}#msg.ok{color:var(--ok)}
</style>
</head><body><main>
<section class="card">
<h1 id="title">Choose your password</h1>
<form id="f">
<label id="emailRow" hidden>E-mail<input id="email" type="email" autocomplete="email"><small>Only for the first admin's link, which has no e-mail yet.</small></label>
<label>New password<input id="password" type="password" minlength="10" required autocomplete="new-password"><small>10 to 200 characters.</small></label>
<button id="save">Save and sign in</button>
</form>
<p id="msg" role="status"></p>
<p id="next" hidden><a class="button" href="/console">Open the console</a></p>
</section>
</main>
<script>${SET_PASSWORD_SCRIPT}</script>
</body></html>
`;
