/**
 * The demo building's sign-in (README quick start): the server creates the account, the web app
 * recognises a newcomer who opens the demo by it and shows them the first-run tour.
 */
export const DEMO_EMAIL = 'demo@heizplan.example';

/** Whether `email` is the demo's account (emails compare without case). */
export const isDemoEmail = (email: string) => email.trim().toLowerCase() === DEMO_EMAIL;
