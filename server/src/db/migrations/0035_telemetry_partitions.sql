-- Telemetry partitioned by month (decision 0061): retention drops whole months instead of
-- deleting rows one by one, and a month's queries read one partition. The rows move once here;
-- `telemetry_default` takes rows outside every month created, which the partition job creates
-- ahead (server/src/modules/reports/telemetry-partitions.ts).
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_unpartitioned" RENAME CONSTRAINT "telemetry_dev_eui_time_f_cnt_pk" TO "telemetry_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "telemetry_unit_time_idx";--> statement-breakpoint
DROP INDEX "telemetry_company_time_idx";--> statement-breakpoint
CREATE TABLE "telemetry" (
	"dev_eui" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"f_cnt" integer NOT NULL,
	"device_id" text,
	"company_id" uuid NOT NULL,
	"unit_id" uuid,
	"f_port" integer NOT NULL,
	"room_temperature" real,
	"supply_temperature" real,
	"setpoint_reported" real,
	"valve_opening" real,
	"battery" real,
	"battery_unit" text,
	"rssi" real,
	"snr" real,
	CONSTRAINT "telemetry_dev_eui_time_f_cnt_pk" PRIMARY KEY("dev_eui","time","f_cnt")
) PARTITION BY RANGE ("time");--> statement-breakpoint
CREATE INDEX "telemetry_unit_time_idx" ON "telemetry" USING btree ("unit_id","time");--> statement-breakpoint
CREATE INDEX "telemetry_company_time_idx" ON "telemetry" USING btree ("company_id","time");--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
  -- Month starts as UTC wall-clock times: arithmetic on them ignores the session's time zone.
  m timestamp := date_trunc('month', least(coalesce((SELECT min("time") FROM "telemetry_unpartitioned"), now()), now()) AT TIME ZONE 'UTC');
  last timestamp := date_trunc('month', (now() + interval '2 months') AT TIME ZONE 'UTC');
BEGIN
  WHILE m <= last LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "telemetry" FOR VALUES FROM (%L) TO (%L)',
      'telemetry_' || to_char(m, 'YYYY_MM'),
      (m AT TIME ZONE 'UTC'),
      ((m + interval '1 month') AT TIME ZONE 'UTC')
    );
    m := m + interval '1 month';
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "telemetry" SELECT * FROM "telemetry_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";
