CREATE TABLE "building_outdoor_temperatures" (
	"company_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"temperature" real NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "building_outdoor_temperatures_building_id_at_pk" PRIMARY KEY("building_id","at")
);
--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "outdoor_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "building_outdoor_temperatures" ADD CONSTRAINT "building_outdoor_temperatures_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_outdoor_temperatures" ADD CONSTRAINT "building_outdoor_temperatures_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "building_outdoor_company_idx" ON "building_outdoor_temperatures" USING btree ("company_id");