/**
 * Texts of the hosted sign-in pages and identity mails, German (default, spec §1) and English.
 * Both languages must have the same keys (the `satisfies` clause checks it at compile time).
 * `{name}` placeholders are filled by `t()`.
 */

const de = {
  switchTo: 'English',
  brand: 'Heizplan',
  imprint: 'Impressum',
  privacy: 'Datenschutz',
  legal: 'Rechtliches',
  accessibility: 'Barrierefreiheit',
  loginTitle: 'Anmelden',
  loginIntro: 'Melden Sie sich mit Ihrer E-Mail-Adresse an.',
  email: 'E-Mail-Adresse',
  password: 'Passwort',
  name: 'Name',
  newPassword: 'Neues Passwort',
  repeatPassword: 'Passwort wiederholen',
  passwordHint: 'Mindestens {min} Zeichen.',
  signIn: 'Anmelden',
  forgotLink: 'Passwort vergessen?',
  registerLink: 'Neues Konto erstellen',
  haveAccount: 'Schon ein Konto?',
  noAccount: 'Noch kein Konto?',
  invalidCredentials: 'E-Mail-Adresse oder Passwort ist falsch.',
  locked: 'Zu viele fehlgeschlagene Anmeldungen. Bitte versuchen Sie es in {minutes} Minute(n) erneut.',
  secondFactorTitle: 'Bestätigungscode',
  secondFactorIntro: 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.',
  secondFactorCode: 'Bestätigungscode',
  secondFactorHint: 'Ohne Ihr Gerät können Sie stattdessen einen Ihrer Wiederherstellungscodes eingeben.',
  secondFactorSubmit: 'Bestätigen',
  trustBrowser: 'Diesem Browser {days} Tage vertrauen',
  secondFactorWrong: 'Der Code stimmt nicht.',
  or: 'oder',
  passkeySignIn: 'Mit Passkey anmelden',
  passkeyUse: 'Passkey verwenden',
  passkeyTitle: 'Passkey bestätigen',
  passkeyIntro: 'Bestätigen Sie die Anmeldung mit einem Ihrer Passkeys.',
  passkeyFailed:
    'Die Anmeldung mit dem Passkey wurde abgebrochen oder ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  passkeyWrong: 'Der Passkey wurde nicht erkannt. Bitte versuchen Sie es erneut.',
  registerTitle: 'Konto erstellen',
  registerSubmit: 'Konto erstellen',
  emailInvalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  emailTaken: 'Für diese E-Mail-Adresse gibt es bereits ein Konto.',
  nameRequired: 'Bitte geben Sie Ihren Namen ein.',
  passwordTooShort: 'Das Passwort muss mindestens {min} Zeichen lang sein.',
  fieldMissing: 'Bitte füllen Sie dieses Feld aus.',
  passwordMismatch: 'Die Passwörter stimmen nicht überein',
  forgotTitle: 'Passwort vergessen',
  forgotIntro: 'Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort festlegen.',
  forgotSubmit: 'Link senden',
  forgotSent: 'Falls es ein Konto für {email} gibt, haben wir einen Link zum Zurücksetzen gesendet.',
  backToLogin: 'Zurück zur Anmeldung',
  resetTitle: 'Neues Passwort festlegen',
  resetSubmit: 'Passwort speichern',
  resetDone: 'Ihr Passwort wurde geändert. Sie können sich jetzt anmelden.',
  linkInvalid: 'Dieser Link ist ungültig oder abgelaufen.',
  linkInvalidTitle: 'Link ungültig',
  verifyTitle: 'E-Mail-Adresse bestätigt',
  verifyDone: 'Vielen Dank, Ihre E-Mail-Adresse {email} ist bestätigt.',
  toApp: 'Weiter zu Heizplan',
  errorTitle: 'Anmeldung nicht möglich',
  errorIntro: 'Die Anmeldung ist abgelaufen oder ungültig. Bitte starten Sie sie erneut.',
  signedOutTitle: 'Abgemeldet',
  signedOut: 'Sie wurden abgemeldet.',
  logoutTitle: 'Abmelden',
  logoutQuestion: 'Möchten Sie sich von Heizplan abmelden?',
  logoutYes: 'Ja, abmelden',
  logoutNo: 'Nein, angemeldet bleiben',
  verifyMailSubject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
  verifyMailBody:
    'Hallo {name},\n\nbitte bestätigen Sie Ihre E-Mail-Adresse für Heizplan mit diesem Link:\n\n{link}\n\nDer Link ist 7 Tage gültig. Wenn Sie kein Konto erstellt haben, ignorieren Sie diese Nachricht.',
  newSignInMailSubject: 'Neue Anmeldung bei Heizplan',
  newSignInMailBody:
    'Hallo {name},\n\nIhr Heizplan-Konto wurde soeben in einem Browser angemeldet, den Sie bisher nicht verwendet haben:\n\n{browser} auf {os}\n{time}\n\nWaren Sie das, ist nichts weiter zu tun. Wenn nicht, ändern Sie bitte sofort Ihr Passwort und beenden Sie die Sitzung unter Einstellungen → Allgemein:\n\n{link}',
  unknownBrowser: 'Unbekannter Browser',
  unknownOs: 'unbekanntem System',
  resetMailSubject: 'Heizplan: Passwort zurücksetzen',
  resetMailBody:
    'Hallo {name},\n\nmit diesem Link legen Sie ein neues Passwort fest:\n\n{link}\n\nDer Link ist 1 Stunde gültig. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht.',
};

const en = {
  switchTo: 'Deutsch',
  brand: 'Heizplan',
  imprint: 'Legal notice (Impressum)',
  privacy: 'Privacy notice (German)',
  legal: 'Legal',
  accessibility: 'Accessibility',
  loginTitle: 'Sign in',
  loginIntro: 'Sign in with your email address.',
  email: 'Email address',
  password: 'Password',
  name: 'Name',
  newPassword: 'New password',
  repeatPassword: 'Repeat password',
  passwordHint: 'At least {min} characters.',
  signIn: 'Sign in',
  forgotLink: 'Forgot password?',
  registerLink: 'Create an account',
  haveAccount: 'Already have an account?',
  noAccount: 'No account yet?',
  invalidCredentials: 'Email address or password is wrong.',
  locked: 'Too many failed sign-ins. Please try again in {minutes} minute(s).',
  secondFactorTitle: 'Verification code',
  secondFactorIntro: 'Enter the 6-digit code from your authenticator app.',
  secondFactorCode: 'Verification code',
  secondFactorHint: 'Without your device, you can enter one of your recovery codes instead.',
  secondFactorSubmit: 'Verify',
  trustBrowser: 'Trust this browser for {days} days',
  secondFactorWrong: 'The code is not correct.',
  or: 'or',
  passkeySignIn: 'Sign in with a passkey',
  passkeyUse: 'Use a passkey',
  passkeyTitle: 'Confirm with a passkey',
  passkeyIntro: 'Confirm the sign-in with one of your passkeys.',
  passkeyFailed: 'The sign-in with the passkey was cancelled or failed. Please try again.',
  passkeyWrong: 'The passkey was not recognised. Please try again.',
  registerTitle: 'Create account',
  registerSubmit: 'Create account',
  emailInvalid: 'Please enter a valid email address.',
  emailTaken: 'An account with this email address already exists.',
  nameRequired: 'Please enter your name.',
  passwordTooShort: 'The password must be at least {min} characters long.',
  fieldMissing: 'Please fill in this field.',
  passwordMismatch: 'The passwords do not match',
  forgotTitle: 'Forgot password',
  forgotIntro: 'We will send you a link to set a new password.',
  forgotSubmit: 'Send link',
  forgotSent: 'If there is an account for {email}, we have sent a reset link.',
  backToLogin: 'Back to sign in',
  resetTitle: 'Set a new password',
  resetSubmit: 'Save password',
  resetDone: 'Your password has been changed. You can sign in now.',
  linkInvalid: 'This link is invalid or has expired.',
  linkInvalidTitle: 'Invalid link',
  verifyTitle: 'Email address confirmed',
  verifyDone: 'Thank you, your email address {email} is confirmed.',
  toApp: 'Continue to Heizplan',
  errorTitle: 'Sign-in not possible',
  errorIntro: 'The sign-in has expired or is invalid. Please start again.',
  signedOutTitle: 'Signed out',
  signedOut: 'You have been signed out.',
  logoutTitle: 'Sign out',
  logoutQuestion: 'Do you want to sign out of Heizplan?',
  logoutYes: 'Yes, sign out',
  logoutNo: 'No, stay signed in',
  verifyMailSubject: 'Please confirm your email address',
  verifyMailBody:
    'Hello {name},\n\nplease confirm your email address for Heizplan with this link:\n\n{link}\n\nThe link is valid for 7 days. If you did not create an account, ignore this message.',
  newSignInMailSubject: 'New sign-in to Heizplan',
  newSignInMailBody:
    'Hello {name},\n\nyour Heizplan account was just signed in from a browser you have not used before:\n\n{browser} on {os}\n{time}\n\nIf this was you, there is nothing to do. If not, please change your password at once and end the session under Settings → General:\n\n{link}',
  unknownBrowser: 'Unknown browser',
  unknownOs: 'unknown system',
  resetMailSubject: 'Heizplan: reset your password',
  resetMailBody:
    'Hello {name},\n\nuse this link to set a new password:\n\n{link}\n\nThe link is valid for 1 hour. If you did not ask for this, ignore this message.',
} satisfies Record<keyof typeof de, string>;

export type Lang = 'de' | 'en';
export type TextKey = keyof typeof de;

const texts: Record<Lang, Record<TextKey, string>> = { de, en };

/** The text `key` in `lang` with `{name}` placeholders replaced. */
export function t(lang: Lang, key: TextKey, values: Record<string, string | number> = {}): string {
  return texts[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

/**
 * Page language: an explicit `lang` (query or form field) wins, else the first supported
 * language in Accept-Language, else German (spec §1: German default).
 */
export function pickLang(explicit: unknown, acceptLanguage: string | undefined): Lang {
  if (explicit === 'de' || explicit === 'en') return explicit;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.lang === 'de' || entry.lang === 'en')
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.lang as Lang | undefined) ?? 'de';
}
