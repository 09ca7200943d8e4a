CREATE TABLE "building_heating_starts" (
	"building_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"day" text,
	"start_at" timestamp with time zone,
	"computed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "building_heating_starts" ADD CONSTRAINT "building_heating_starts_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_heating_starts" ADD CONSTRAINT "building_heating_starts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "building_heating_starts_company_idx" ON "building_heating_starts" USING btree ("company_id");