CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heating_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "heating_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"old_setpoint" real,
	"new_setpoint" real NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "heating_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid,
	"group_id" uuid,
	"name" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"valid_from" text,
	"valid_to" text,
	"dates" jsonb,
	"switch_points" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "heating_plans_owner_check" CHECK (("heating_plans"."unit_id" is null) <> ("heating_plans"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "setpoint_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "setpoint_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"setpoint" real NOT NULL,
	"wall_control_min" real,
	"wall_control_max" real,
	"ignore_wall_control" boolean NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"group_id" uuid,
	"wall_control_min" real,
	"wall_control_max" real,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_at" timestamp with time zone,
	"resumed_at" timestamp with time zone,
	"manual_kind" text,
	"manual_setpoint" real,
	"manual_at" timestamp with time zone,
	"manual_until" timestamp with time zone,
	"setpoint" real,
	"setpoint_source" text,
	"setpoint_since" timestamp with time zone,
	"ignore_wall_control" boolean DEFAULT false NOT NULL,
	"next_change_at" timestamp with time zone,
	"room_temperature" real,
	"valve_opening" real,
	"supply_temperature" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "frost_protection" real DEFAULT 8 NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_log" ADD CONSTRAINT "heating_log_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_log" ADD CONSTRAINT "heating_log_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_log" ADD CONSTRAINT "heating_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_plans" ADD CONSTRAINT "heating_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_plans" ADD CONSTRAINT "heating_plans_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_plans" ADD CONSTRAINT "heating_plans_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setpoint_outbox" ADD CONSTRAINT "setpoint_outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setpoint_outbox" ADD CONSTRAINT "setpoint_outbox_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "groups_company_name_key" ON "groups" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "heating_log_unit_at_idx" ON "heating_log" USING btree ("unit_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "heating_plans_unit_idx" ON "heating_plans" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "heating_plans_group_idx" ON "heating_plans" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "units_company_name_idx" ON "units" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "units_group_idx" ON "units" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "units_next_change_at_idx" ON "units" USING btree ("next_change_at");