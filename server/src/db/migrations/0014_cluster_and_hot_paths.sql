CREATE TABLE "mqtt_sessions" (
	"client_id" text PRIMARY KEY NOT NULL,
	"slot" integer,
	"filters" text[] DEFAULT '{}' NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downlinks" ADD COLUMN "publish_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_limit_windows_expires_idx" ON "rate_limit_windows" USING btree ("expires_at");--> statement-breakpoint
-- Units are rewritten by every scheduler tick (setpoint, next change) and every uplink (room
-- temperature); without an index on next_change_at those updates are HOT (no index entries,
-- the row stays on its page at fillfactor 50): 5,000 units per batch in 23 ms instead of 170 ms.
-- A tick finds the due units with one scan of the table instead (15 ms for 100,000 units) and
-- locks them by id (docs/decisions/0035).
DROP INDEX "units_next_change_at_idx";
--> statement-breakpoint
-- The unit's foreign key already cascades from the company; a second checked key cost the
-- scheduler's log insert a lookup and a row lock per entry (docs/decisions/0035).
ALTER TABLE "heating_log" DROP CONSTRAINT "heating_log_company_id_companies_id_fk";
--> statement-breakpoint
-- Checking both keys was most of the cost of inserting a batch of uplinks: 1,200 rows in 30-55 ms
-- with them, 6-15 ms without (docs/decisions/0035). The account purge deletes a company's
-- telemetry with the company; a deleted unit's rows keep its id as history.
ALTER TABLE "telemetry" DROP CONSTRAINT "telemetry_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "telemetry" DROP CONSTRAINT "telemetry_unit_id_units_id_fk";
