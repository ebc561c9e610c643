/* The embeddable widget (docs/widgets.md): <script src="https://<service>/widget.js" data-widget="<publicId>" async></script>
   Plain JavaScript, no framework, no build step: a launcher button and a chat panel in a shadow root
   (the page's styles do not reach it), answers streamed from POST /widget/<id>/chat. The panel keeps
   the conversation; the service stores none. */
(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var id = script.getAttribute('data-widget') || '';
  var api = new URL(script.src).origin + '/widget/' + encodeURIComponent(id);
  var history = [];
  var busy = false;

  var host = document.createElement('div');
  host.setAttribute('data-svc-widget', id);
  var root = host.attachShadow({ mode: 'open' });
  /* Built without innerHTML, and styled through a constructed style sheet: a page whose policy forbids
     inline styles (CSP style-src without 'unsafe-inline') or requires Trusted Types still shows it. */
  var css =
    ':host{all:initial;font:15px/1.4 system-ui,sans-serif;color:#1d2330}' +
    '.l{position:fixed;right:20px;bottom:20px;z-index:2147483647;border:0;border-radius:24px;padding:12px 18px;background:#2450d6;color:#fff;font:inherit;cursor:pointer;box-shadow:0 2px 10px #0004}' +
    '.p{position:fixed;right:20px;bottom:76px;z-index:2147483647;width:min(360px,calc(100vw - 40px));height:min(520px,calc(100vh - 100px));display:flex;flex-direction:column;background:#fff;border-radius:12px;box-shadow:0 4px 24px #0005;overflow:hidden}' +
    '[hidden]{display:none!important}' +
    '.h{display:flex;justify-content:space-between;align-items:center;padding:10px 14px;background:#2450d6;color:#fff;font-weight:600}' +
    '.h button{border:0;background:none;color:#fff;font-size:20px;cursor:pointer}' +
    '.g{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px}' +
    '.m{max-width:85%;padding:8px 11px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word}' +
    '.u{align-self:flex-end;background:#2450d6;color:#fff}.a{align-self:flex-start;background:#eef1f7}' +
    '.e{align-self:stretch;background:#fdecec;color:#8a1c1c}.s{font-size:12px;color:#5a6275;margin-top:4px}' +
    'form{display:flex;gap:6px;padding:10px;border-top:1px solid #e2e5ec}' +
    'input{flex:1;min-width:0;padding:8px;border:1px solid #c4c9d4;border-radius:8px;font:inherit}' +
    'input[aria-invalid=true]{border-color:#b3261e}' +
    'form button{border:0;border-radius:8px;padding:8px 12px;background:#2450d6;color:#fff;font:inherit;cursor:pointer}' +
    'button:disabled{opacity:.5;cursor:default}:focus-visible{outline:2px solid #f5a623;outline-offset:2px}';
  try {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch (e) {
    root.appendChild(Object.assign(document.createElement('style'), { textContent: css }));
  }
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return el;
  }
  var launcher = h('button', { class: 'l', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'p' }, ['Questions?']);
  var title = h('span');
  var close = h('button', { type: 'button', 'aria-label': 'Close chat' }, ['\u00d7']);
  var log = h('div', { class: 'g', role: 'log', 'aria-live': 'polite' });
  var input = h('input', { name: 'q', autocomplete: 'off', maxlength: '2000', 'aria-label': 'Your question', placeholder: 'Ask a question' });
  var send = h('button', { type: 'submit' }, ['Send']);
  var form = h('form', {}, [input, send]);
  var panel = h('section', { class: 'p', id: 'p', role: 'dialog', 'aria-label': 'Chat', hidden: '' }, [h('div', { class: 'h' }, [title, close]), log, form]);
  root.appendChild(launcher);
  root.appendChild(panel);

  function bubble(kind, text) {
    var el = document.createElement('div');
    el.className = 'm ' + kind;
    el.textContent = text;
    log.appendChild(el);
    log.scrollTop = log.scrollHeight;
    return el;
  }

  /* Refusals as a visitor should read them; the service's own message otherwise. */
  function explain(status, body, retryAfter) {
    var code = body && body.code;
    if (code === 'origin_not_allowed' || status === 404) return 'This assistant is not available on this site.';
    if (code === 'rate_limited' || status === 429) return 'You are asking questions too quickly. Please wait ' + (retryAfter || 'a few') + ' seconds.';
    if (code === 'QUESTION_LIMIT' || code === 'SUBSCRIPTION_INACTIVE' || code === 'PLAN_UPGRADE_REQUIRED') return 'This assistant cannot answer more questions right now.';
    if (body && body.error && status < 500) return body.error;
    return 'Something went wrong. Please try again.';
  }

  function open(show) {
    panel.hidden = !show;
    launcher.setAttribute('aria-expanded', String(show));
    (show ? input : launcher).focus();
  }

  function setBusy(on) {
    busy = on;
    send.disabled = on;
    log.setAttribute('aria-busy', String(on));
  }

  function citations(list) {
    if (!list || !list.length) return '';
    return 'Sources: ' + list.map(function (c) {
      return '[' + c.ref + '] ' + c.sourceName + (c.section ? ', ' + c.section : '') + (c.page ? ' (p. ' + c.page + ')' : '');
    }).join('; ');
  }

  /* Reads `data: {...}` events from the stream, calling onEvent for each. */
  async function readEvents(res, onEvent) {
    var reader = res.body.getReader();
    var decoder = new TextDecoder();
    var buffer = '';
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      var frames = buffer.split('\n\n');
      buffer = frames.pop();
      frames.forEach(function (frame) {
        frame.split('\n').forEach(function (line) {
          if (line.indexOf('data: ') === 0) onEvent(JSON.parse(line.slice(6)));
        });
      });
    }
  }

  async function ask(question) {
    setBusy(true);
    bubble('u', question);
    var answer = bubble('a', '');
    var text = '';
    var finished = false;
    try {
      var res = await fetch(api + '/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: question, history: history.slice(-20) }),
      });
      if (!res.ok) {
        var body = await res.json().catch(function () { return null; });
        throw { shown: explain(res.status, body, res.headers.get('retry-after')) };
      }
      await readEvents(res, function (event) {
        if (event.type === 'token') {
          text += event.data.delta;
          answer.textContent = text;
          log.scrollTop = log.scrollHeight;
        } else if (event.type === 'done') {
          finished = true;
          text = event.data.content;
          answer.textContent = text;
          var sources = citations(event.data.citations);
          if (sources) answer.appendChild(Object.assign(document.createElement('div'), { className: 's', textContent: sources }));
          history.push({ role: 'user', content: question }, { role: 'assistant', content: text });
        } else if (event.type === 'error') {
          throw { shown: explain(event.data.status, event.data) };
        }
      });
      if (!finished) throw {};
    } catch (err) {
      if (!text) answer.remove();
      bubble('e', (err && err.shown) || 'The connection was lost. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  launcher.addEventListener('click', function () { open(panel.hidden); });
  close.addEventListener('click', function () { open(false); });
  input.addEventListener('input', function () { input.removeAttribute('aria-invalid'); input.placeholder = 'Ask a question'; });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var question = input.value.trim();
    if (busy) return;
    if (!question) {
      /* Nothing to ask: nothing is sent; the field says so (a blank question would be the service's 400). */
      input.value = '';
      input.setAttribute('aria-invalid', 'true');
      input.placeholder = 'Type a question first';
      input.focus();
      return;
    }
    input.value = '';
    ask(question);
  });

  fetch(api + '/config')
    .then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw { shown: explain(res.status, body) };
        return body;
      });
    })
    .then(function (config) {
      title.textContent = config.name;
      panel.setAttribute('aria-label', config.name);
      launcher.textContent = config.name;
      if (config.greeting) bubble('a', config.greeting);
    })
    .catch(function (err) {
      title.textContent = 'Unavailable';
      form.hidden = true;
      bubble('e', (err && err.shown) || 'This assistant is not available on this site.');
    });

  (document.body || document.documentElement).appendChild(host);
})();
