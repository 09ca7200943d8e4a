/**
 * Whether an account has seen the first-run tour, remembered per account (its OpenID Connect
 * `sub`) in this browser's localStorage.
 */
const key = (userId: string) => `heizplan.tourSeen.${userId}`;

export const tourSeen = (userId: string) => localStorage.getItem(key(userId)) !== null;

export function markTourSeen(userId: string) {
  localStorage.setItem(key(userId), new Date().toISOString());
}
