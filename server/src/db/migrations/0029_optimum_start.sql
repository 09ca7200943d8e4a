CREATE TABLE "unit_warm_up_models" (
	"unit_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"deadtime_minutes" real NOT NULL,
	"rate_at0" real NOT NULL,
	"rate_per_outdoor_k" real NOT NULL,
	"cool_rate" real,
	"confidence" real NOT NULL,
	"learned" boolean NOT NULL,
	"sessions" jsonb NOT NULL,
	"cool_downs" jsonb NOT NULL,
	"mornings" jsonb NOT NULL,
	"learned_through" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "optimum_start" text DEFAULT 'shadow' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "optimum_max_lead_minutes" integer DEFAULT 180 NOT NULL;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "optimum_start" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "unit_warm_up_models" ADD CONSTRAINT "unit_warm_up_models_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_warm_up_models" ADD CONSTRAINT "unit_warm_up_models_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unit_warm_up_models_company_idx" ON "unit_warm_up_models" USING btree ("company_id");