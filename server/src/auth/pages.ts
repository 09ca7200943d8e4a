/**
 * Server-rendered HTML of the hosted identity pages (login, registration, forgot/reset
 * password, mail-link results, logout). Plain HTML and one inline stylesheet — no scripts but
 * the logout page's auto-confirm, allowed by its hash, and the passkey buttons' (below) —
 * styled like the app (brand #b4411c, white card on stone-50, readable on a 375 px phone).
 * Every value is escaped; pages carry a de/en switch link. Forms are checked by the browser
 * first (required, e-mail type, minimum lengths) so an incomplete form never reaches the server
 * and its 400; the server checks the same rules again. The browser's own messages for those
 * checks are in the browser's language, not the page's, so one small script (allowed by its
 * hash) replaces them with the page's texts from each field's `data-msg-*` attributes.
 */

import { scriptHashSource } from '../http/security-headers.ts';
import { type Lang, t } from './pages.i18n.ts';
import { MIN_PASSWORD_LENGTH } from './password.ts';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The forms' validation messages in the page's language (Constraint Validation API): on
 * `invalid` the field gets the text for what is wrong; typing clears it so the browser checks again.
 */
export const FORM_MESSAGES_SCRIPT = `for(const i of document.querySelectorAll('input[data-msg-missing]')){i.addEventListener('input',()=>i.setCustomValidity(''));i.addEventListener('invalid',()=>{i.setCustomValidity('');const v=i.validity,d=i.dataset;i.setCustomValidity(v.valueMissing||v.patternMismatch?d.msgMissing:v.typeMismatch?d.msgType||'':v.tooShort?d.msgShort||'':'')})}`;

/**
 * The passkey buttons (decision 0074): for each `form[data-passkey-options]` in a browser with
 * WebAuthn, show the form and on its button's click fetch the options (the form's `pending` token, if any,
 * makes them a second factor's), let the authenticator answer (`@simplewebauthn/browser`'s
 * `startAuthentication`, loaded before this) and post the answer as the form's `response`. A
 * cancelled or failed ceremony shows the form's `data-msg-failed` text and nothing is posted.
 */
export const PASSKEY_SCRIPT = `(()=>{const B=window.SimpleWebAuthnBrowser;for(const f of document.querySelectorAll('form[data-passkey-options]')){const e=document.getElementById(f.dataset.passkeyError);const b=f.querySelector('button');if(!B||!B.browserSupportsWebAuthn())continue;f.hidden=false;b.addEventListener('click',async()=>{b.disabled=true;e.hidden=true;try{const p=f.elements.namedItem('pending');const r=await fetch(f.dataset.passkeyOptions,{method:'POST',headers:{'content-type':'application/x-www-form-urlencoded'},body:new URLSearchParams({pending:p?p.value:''})});if(!r.ok)throw new Error(String(r.status));const a=await B.startAuthentication({optionsJSON:await r.json()});f.elements.namedItem('response').value=JSON.stringify(a);f.submit()}catch{e.textContent=f.dataset.msgFailed;e.hidden=false;b.disabled=false}})}})();`;

/** Where the hosted pages load `@simplewebauthn/browser`'s bundle from (served by interaction.routes.ts). */
export const WEBAUTHN_BUNDLE_PATH = '/auth/assets/simplewebauthn-browser.js';

/** Security headers for every hosted page: no scripts but the form messages', no framing (clickjacking). */
const PAGE_CSP = "default-src 'none'; base-uri 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `${PAGE_CSP}; script-src ${scriptHashSource(FORM_MESSAGES_SCRIPT)}`,
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** PAGE_HEADERS for a page with the inline script `script`: only that script may run (by hash). */
export function pageHeadersWithScript(script: string) {
  return {
    ...PAGE_HEADERS,
    'content-security-policy': `${PAGE_CSP}; script-src ${scriptHashSource(script)}`,
  };
}

/**
 * PAGE_HEADERS for a page with passkey buttons: the WebAuthn bundle runs by the page's `nonce`
 * (fresh per answer), the inline scripts by hash, and the buttons may fetch their options from
 * this origin only (`connect-src 'self'`).
 */
export function pageHeadersWithPasskey(nonce: string) {
  return {
    ...PAGE_HEADERS,
    'content-security-policy': `${PAGE_CSP}; script-src 'nonce-${nonce}' ${scriptHashSource(FORM_MESSAGES_SCRIPT)} ${scriptHashSource(PASSKEY_SCRIPT)}; connect-src 'self'`,
  };
}

/**
 * The hosted pages' look, in the web app's colours. A field's border is what shows where it is
 * (WCAG 1.4.11 asks 3:1): #78716c has 4.8:1 on the field's white and 4.6:1 on the page's #fafaf9
 * (#d6d3d1 had 1.5:1).
 */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:#fafaf9;color:#1c1917;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:flex;flex-direction:column;align-items:center;padding:48px 16px}
main{width:100%;max-width:400px;background:#fff;border:1px solid #e7e5e4;border-radius:12px;box-shadow:0 1px 3px rgba(28,25,23,.08);padding:28px 24px}
header{display:flex;justify-content:space-between;align-items:center;margin-bottom:20px}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;font-size:20px;color:#1c1917;letter-spacing:-.01em}
.lang{font-size:14px}
h1{font-size:22px;margin:0 0 8px}
p{margin:0 0 16px;color:#44403c}
label{display:block;font-size:14px;font-weight:600;margin:14px 0 4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #78716c;border-radius:8px;background:#fff}
input:focus{outline:2px solid #b4411c;outline-offset:1px;border-color:#b4411c}
input[aria-invalid=true]{border-color:#b91c1c}
.hint{font-size:13px;color:#78716c;margin:4px 0 0}
.field-error{font-size:13px;color:#b91c1c;margin:4px 0 0}
.alert{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:8px;padding:10px 12px;margin:0 0 12px;font-size:14px}
.notice{background:#f0fdf4;border:1px solid #bbf7d0;color:#166534;border-radius:8px;padding:10px 12px;margin:0 0 12px;font-size:14px}
button{width:100%;margin-top:20px;font:inherit;font-weight:600;color:#fff;background:#b4411c;border:0;border-radius:8px;padding:11px 16px;cursor:pointer}
button:hover{background:#9a3412}
button.secondary{background:#fff;color:#44403c;border:1px solid #78716c;margin-top:10px}
label.check{display:flex;gap:8px;align-items:center;font-weight:400}
label.check input{width:auto;margin:0}
.or{text-align:center;font-size:14px;color:#57534e;margin:16px 0 0}
a{color:#b4411c}
.links{margin-top:20px;font-size:14px;display:flex;flex-direction:column;gap:8px}
footer{margin-top:16px;font-size:13px}
footer a{margin:0 8px}
`;

/**
 * The accessibility statement in each language, as modules/legal serves it (auth imports nothing
 * from the modules; legal.test.ts checks that both name the same addresses).
 */
export const STATEMENT_HREF: Record<Lang, string> = {
  de: '/legal/barrierefreiheit.html',
  en: '/legal/accessibility.html',
};

/** The app's logo mark (web/public/favicon.svg), inline because the CSP allows no images. */
const LOGO =
  '<svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#b4411c"/><path d="M9 23V9m7 14V9m7 14V9M6 23h20" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>';

export interface PageShell {
  lang: Lang;
  title: string;
  /** Address of the same page in the other language. */
  switchHref: string;
  body: string;
}

export function renderPage({ lang, title, switchHref, body }: PageShell): string {
  const other: Lang = lang === 'de' ? 'en' : 'de';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Heizplan</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><span class="brand">${LOGO}${t(lang, 'brand')}</span><a class="lang" href="${escapeHtml(switchHref)}" hreflang="${other}" lang="${other}">${t(lang, 'switchTo')}</a></header>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
<footer><nav aria-label="${t(lang, 'legal')}"><a href="/legal/impressum.html">${t(lang, 'imprint')}</a> <a href="/legal/datenschutz.html" hreflang="de">${t(lang, 'privacy')}</a> <a href="${STATEMENT_HREF[lang]}">${t(lang, 'accessibility')}</a></nav></footer>
</body>
</html>`;
}

/** `href` with its `lang` query parameter set to `lang`. */
export function withLang(href: string, lang: Lang): string {
  const url = new URL(href, 'http://x');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

export interface FieldSpec {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  /** The keyboard a phone shows (`numeric` for a verification code). */
  inputmode?: 'numeric';
  value?: string;
  error?: string;
  hint?: string;
  autocomplete: string;
  /** Shortest value the server accepts (a new password). */
  minLength?: number;
  /** A value must contain more than spaces (the server trims it). */
  nonBlank?: boolean;
}

/** The `data-msg-*` attributes FORM_MESSAGES_SCRIPT shows for a field, in `lang`. */
function messageAttributes(f: FieldSpec, lang: Lang): string {
  const attr = (name: string, text: string) => ` data-msg-${name}="${escapeHtml(text)}"`;
  return `${attr('missing', t(lang, 'fieldMissing'))}${f.type === 'email' ? attr('type', t(lang, 'emailInvalid')) : ''}${
    f.minLength ? attr('short', t(lang, 'passwordTooShort', { min: f.minLength })) : ''
  }`;
}

function field(f: FieldSpec, lang: Lang): string {
  const id = `f-${f.name}`;
  const described = f.error ? `${id}-error` : f.hint ? `${id}-hint` : '';
  return `<label for="${id}">${escapeHtml(f.label)}</label>
<input id="${id}" name="${f.name}" type="${f.type}" autocomplete="${f.autocomplete}"${
    f.inputmode ? ` inputmode="${f.inputmode}"` : ''
  }${messageAttributes(f, lang)} required${
    f.minLength ? ` minlength="${f.minLength}"` : ''
  }${f.nonBlank ? ' pattern=".*\\S.*"' : ''}${
    f.value && f.type !== 'password' ? ` value="${escapeHtml(f.value)}"` : ''
  }${f.error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${f.error ? `<p class="field-error" id="${id}-error">${escapeHtml(f.error)}</p>` : ''}${
  f.hint && !f.error ? `<p class="hint" id="${id}-hint">${escapeHtml(f.hint)}</p>` : ''
}`;
}

export interface FormSpec {
  lang: Lang;
  action: string;
  fields: FieldSpec[];
  /** Hidden inputs besides `lang` (values escaped). */
  hidden?: Record<string, string>;
  submit: string;
  alert?: string;
  notice?: string;
  intro?: string;
  links?: { href: string; label: string; prefix?: string }[];
  /** A checkbox below the fields, sent as `on` when ticked ("trust this browser"). */
  checkbox?: { name: string; label: string };
}

/** A card body with an optional intro/alert, the fields, a submit button and links below. */
export function renderForm(form: FormSpec): string {
  const links = (form.links ?? [])
    .map(
      (l) =>
        `<span>${l.prefix ? `${escapeHtml(l.prefix)} ` : ''}<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></span>`,
    )
    .join('');
  return `${form.intro ? `<p>${escapeHtml(form.intro)}</p>` : ''}${
    form.alert ? `<div class="alert" role="alert">${escapeHtml(form.alert)}</div>` : ''
  }${form.notice ? `<div class="notice" role="status">${escapeHtml(form.notice)}</div>` : ''}
<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="lang" value="${form.lang}">
${Object.entries(form.hidden ?? {})
  .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">\n`)
  .join('')}${form.fields.map((f) => field(f, form.lang)).join('\n')}${
  form.checkbox
    ? `\n<label class="check"><input type="checkbox" name="${escapeHtml(form.checkbox.name)}" value="on"> ${escapeHtml(form.checkbox.label)}</label>`
    : ''
}
<button type="submit">${escapeHtml(form.submit)}</button>
</form>
<script>${FORM_MESSAGES_SCRIPT}</script>
${links ? `<div class="links">${links}</div>` : ''}`;
}

export interface PasskeyFormSpec {
  lang: Lang;
  /** Where the answer is posted. */
  action: string;
  /** Where the button fetches the options (JSON) from. */
  optionsUrl: string;
  /** The second factor's pending token; absent for a sign-in without password. */
  pending?: string;
  /** The button's text. */
  label: string;
  /** The page's nonce for the WebAuthn bundle (pageHeadersWithPasskey). */
  nonce: string;
  /** A line above the button ("or"). */
  lead?: string;
}

/**
 * A passkey button (decision 0074): a form, hidden until PASSKEY_SCRIPT finds WebAuthn, that
 * posts the authenticator's answer; then the bundle and the script. Without scripts or WebAuthn
 * nothing shows, so the button never leads nowhere. The button is no submit button: Enter in the
 * password form next to it submits the password, and only the script posts this form.
 */
export function renderPasskeyForm(form: PasskeyFormSpec): string {
  const errorId = 'passkey-error';
  return `<form method="post" action="${escapeHtml(form.action)}" data-passkey-options="${escapeHtml(form.optionsUrl)}" data-passkey-error="${errorId}" data-msg-failed="${escapeHtml(t(form.lang, 'passkeyFailed'))}" hidden>
${form.lead ? `<p class="or">${escapeHtml(form.lead)}</p>\n` : ''}<input type="hidden" name="lang" value="${form.lang}">
${form.pending ? `<input type="hidden" name="pending" value="${escapeHtml(form.pending)}">\n` : ''}<input type="hidden" name="response" value="">
<button type="button" class="secondary">${escapeHtml(form.label)}</button>
</form>
<p class="field-error" id="${errorId}" role="alert" hidden></p>
<script nonce="${escapeHtml(form.nonce)}" src="${WEBAUTHN_BUNDLE_PATH}"></script>
<script>${PASSKEY_SCRIPT}</script>`;
}

/** A message card (e.g. "email confirmed") with an optional link button. */
export function renderMessage(
  message: string,
  link?: { href: string; label: string },
  kind?: 'alert',
): string {
  const text =
    kind === 'alert'
      ? `<div class="alert" role="alert">${escapeHtml(message)}</div>`
      : `<p>${escapeHtml(message)}</p>`;
  return `${text}${link ? `<div class="links"><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></div>` : ''}`;
}

export const passwordHint = (lang: Lang) => t(lang, 'passwordHint', { min: MIN_PASSWORD_LENGTH });
