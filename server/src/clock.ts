/**
 * The time the server acts on, as an input (docs/architecture.md, "Time is an input").
 *
 * Services, jobs and the heating core read "now" from a `Clock` they are given instead of the
 * machine's clock, so tests fix the instant (a night, a DST change morning, a month end) and the
 * preview can evaluate another window than the one the engine's knowledge is read at.
 */

/** Returns the current instant (UTC `Date`); called once per operation, never cached. */
export type Clock = () => Date;

/** The machine's clock: what `main.ts` hands to everything. */
export const systemClock: Clock = () => new Date();
