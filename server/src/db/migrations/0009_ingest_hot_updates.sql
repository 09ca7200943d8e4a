-- Every uplink rewrites its device's row (last seen, battery, signal) and often its unit's
-- (room temperature, valve opening). Half-empty pages let PostgreSQL make those HOT updates
-- (new row version on the same page, no new index entries); see docs/decisions/0016.
ALTER TABLE "devices" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "units" SET (fillfactor = 50);
