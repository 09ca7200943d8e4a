CREATE TABLE "closure_buildings" (
	"closure_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"floor" text DEFAULT '' NOT NULL,
	CONSTRAINT "closure_buildings_closure_id_building_id_floor_pk" PRIMARY KEY("closure_id","building_id","floor")
);
--> statement-breakpoint
ALTER TABLE "closures" ADD COLUMN "recurrence" text;--> statement-breakpoint
ALTER TABLE "closures" ADD COLUMN "last_end" timestamp with time zone;--> statement-breakpoint
-- Closures so far do not recur: their last occurrence is the closure itself.
UPDATE "closures" SET "last_end" = "end";--> statement-breakpoint
ALTER TABLE "closure_buildings" ADD CONSTRAINT "closure_buildings_closure_id_closures_id_fk" FOREIGN KEY ("closure_id") REFERENCES "public"."closures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closure_buildings" ADD CONSTRAINT "closure_buildings_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "closure_buildings_building_idx" ON "closure_buildings" USING btree ("building_id");