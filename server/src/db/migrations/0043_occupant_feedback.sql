CREATE TABLE "occupant_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"feeling" text NOT NULL,
	"room_temperature" real,
	"setpoint" real,
	"trend" real
);
--> statement-breakpoint
ALTER TABLE "occupant_feedback" ADD CONSTRAINT "occupant_feedback_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occupant_feedback" ADD CONSTRAINT "occupant_feedback_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "occupant_feedback_unit_at_idx" ON "occupant_feedback" USING btree ("unit_id","at");--> statement-breakpoint
CREATE INDEX "occupant_feedback_company_at_idx" ON "occupant_feedback" USING btree ("company_id","at");