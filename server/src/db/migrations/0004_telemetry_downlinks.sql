CREATE TABLE "downlinks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid,
	"device_id" text NOT NULL,
	"dev_eui" text NOT NULL,
	"setpoint" real NOT NULL,
	"f_port" integer NOT NULL,
	"payload" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"queue_item_id" text,
	"reason" text NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
);
--> statement-breakpoint
ALTER TABLE "downlinks" ADD CONSTRAINT "downlinks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downlinks" ADD CONSTRAINT "downlinks_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downlinks_device_state_idx" ON "downlinks" USING btree ("device_id","state");--> statement-breakpoint
CREATE INDEX "downlinks_unit_state_idx" ON "downlinks" USING btree ("unit_id","state");--> statement-breakpoint
CREATE INDEX "downlinks_unpublished_idx" ON "downlinks" USING btree ("created_at") WHERE "downlinks"."published_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "downlinks_command_key" ON "downlinks" USING btree ("device_id","applied_at","setpoint");--> statement-breakpoint
CREATE INDEX "telemetry_unit_time_idx" ON "telemetry" USING btree ("unit_id","time");--> statement-breakpoint
CREATE INDEX "telemetry_company_time_idx" ON "telemetry" USING btree ("company_id","time");