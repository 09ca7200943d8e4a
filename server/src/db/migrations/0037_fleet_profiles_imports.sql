CREATE TABLE "device_profile_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"model" text NOT NULL,
	"building_id" uuid,
	"group_id" uuid,
	"unit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_profile_assignments_one_place" CHECK (num_nonnulls("device_profile_assignments"."building_id", "device_profile_assignments"."group_id", "device_profile_assignments"."unit_id") <= 1)
);
--> statement-breakpoint
CREATE TABLE "device_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"config" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"defaults" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_company_id_kind_pk" PRIMARY KEY("company_id","kind")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "building_ids" uuid[];--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_config" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "spreading_factor" smallint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "uplink_bytes" smallint;--> statement-breakpoint
ALTER TABLE "device_profile_assignments" ADD CONSTRAINT "device_profile_assignments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_profile_assignments" ADD CONSTRAINT "device_profile_assignments_profile_id_device_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."device_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_profile_assignments" ADD CONSTRAINT "device_profile_assignments_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_profile_assignments" ADD CONSTRAINT "device_profile_assignments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_profile_assignments" ADD CONSTRAINT "device_profile_assignments_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_profiles" ADD CONSTRAINT "device_profiles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_profile_assignments_place_key" ON "device_profile_assignments" USING btree ("company_id","model",coalesce("building_id", "group_id", "unit_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "device_profile_assignments_profile_idx" ON "device_profile_assignments" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_profiles_company_name_key" ON "device_profiles" USING btree ("company_id",lower("name"));