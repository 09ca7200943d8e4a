CREATE TABLE "qr_code_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unit_qr_codes" (
	"unit_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"token" text NOT NULL,
	"enabled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"enabled_by" text,
	CONSTRAINT "unit_qr_codes_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "occupant_change_max_hours" integer;--> statement-breakpoint
ALTER TABLE "qr_code_changes" ADD CONSTRAINT "qr_code_changes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code_changes" ADD CONSTRAINT "qr_code_changes_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code_changes" ADD CONSTRAINT "qr_code_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_qr_codes" ADD CONSTRAINT "unit_qr_codes_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_qr_codes" ADD CONSTRAINT "unit_qr_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_qr_codes" ADD CONSTRAINT "unit_qr_codes_enabled_by_users_id_fk" FOREIGN KEY ("enabled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qr_code_changes_unit_idx" ON "qr_code_changes" USING btree ("unit_id","at");