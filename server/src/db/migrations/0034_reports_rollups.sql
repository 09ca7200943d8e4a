CREATE TABLE "building_meter_readings" (
	"company_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"month" text NOT NULL,
	"carrier" text NOT NULL,
	"kwh" real NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "building_meter_readings_building_id_month_carrier_pk" PRIMARY KEY("building_id","month","carrier")
);
--> statement-breakpoint
CREATE TABLE "building_report_settings" (
	"building_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"heated_area_m2" real,
	"max_heating_hours_per_degree_day" real,
	"max_below_comfort_share" real,
	"checked_month" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_subscriptions" (
	"company_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"last_month" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_subscriptions_company_id_user_id_pk" PRIMARY KEY("company_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "rollup_state" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"done_until" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unit_rollups_15m" (
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"building_id" uuid,
	"bucket" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"room_min" real,
	"room_mean" real,
	"room_max" real,
	"valve_mean" real,
	"setpoint" real,
	"setpoint_source" text,
	"heating_minutes" real NOT NULL,
	"window_minutes" real NOT NULL,
	"outdoor" real,
	CONSTRAINT "unit_rollups_15m_unit_id_bucket_pk" PRIMARY KEY("unit_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "unit_rollups_daily" (
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"building_id" uuid,
	"day" date NOT NULL,
	"buckets" integer NOT NULL,
	"reading_buckets" integer NOT NULL,
	"room_min" real,
	"room_mean" real,
	"room_max" real,
	"valve_mean" real,
	"setpoint_mean" real,
	"occupied_setpoint_mean" real,
	"heating_minutes" real NOT NULL,
	"window_minutes" real NOT NULL,
	"window_heating_minutes" real NOT NULL,
	"outdoor_mean" real,
	"occupied_minutes" integer NOT NULL,
	"below_comfort_minutes" integer NOT NULL,
	"category_i_minutes" integer NOT NULL,
	"category_ii_minutes" integer NOT NULL,
	"category_iii_minutes" integer NOT NULL,
	"setback_minutes" integer NOT NULL,
	"stuck_open_minutes" integer NOT NULL,
	CONSTRAINT "unit_rollups_daily_unit_id_day_pk" PRIMARY KEY("unit_id","day")
);
--> statement-breakpoint
ALTER TABLE "building_meter_readings" ADD CONSTRAINT "building_meter_readings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_meter_readings" ADD CONSTRAINT "building_meter_readings_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_report_settings" ADD CONSTRAINT "building_report_settings_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_report_settings" ADD CONSTRAINT "building_report_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollup_state" ADD CONSTRAINT "rollup_state_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "building_meter_readings_company_idx" ON "building_meter_readings" USING btree ("company_id","month");--> statement-breakpoint
CREATE INDEX "unit_rollups_15m_company_bucket_idx" ON "unit_rollups_15m" USING btree ("company_id","bucket");--> statement-breakpoint
CREATE INDEX "unit_rollups_daily_company_day_idx" ON "unit_rollups_daily" USING btree ("company_id","day");