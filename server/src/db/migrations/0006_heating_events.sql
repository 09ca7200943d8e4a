CREATE TABLE "heating_event_groups" (
	"event_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	CONSTRAINT "heating_event_groups_event_id_group_id_pk" PRIMARY KEY("event_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "heating_event_units" (
	"event_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	CONSTRAINT "heating_event_units_event_id_unit_id_pk" PRIMARY KEY("event_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "heating_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone,
	"temperature" real NOT NULL,
	"prevent_regular" boolean DEFAULT false NOT NULL,
	"group_mode" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "heating_events_end_check" CHECK ("heating_events"."end" is null or "heating_events"."end" >= "heating_events"."start"),
	CONSTRAINT "heating_events_prevent_check" CHECK (not "heating_events"."prevent_regular" or "heating_events"."end" is not null)
);
--> statement-breakpoint
ALTER TABLE "heating_event_groups" ADD CONSTRAINT "heating_event_groups_event_id_heating_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."heating_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_event_groups" ADD CONSTRAINT "heating_event_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_event_units" ADD CONSTRAINT "heating_event_units_event_id_heating_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."heating_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_event_units" ADD CONSTRAINT "heating_event_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_events" ADD CONSTRAINT "heating_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_events" ADD CONSTRAINT "heating_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heating_event_groups_group_idx" ON "heating_event_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "heating_event_units_unit_idx" ON "heating_event_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "heating_events_company_start_idx" ON "heating_events" USING btree ("company_id","start");