CREATE TABLE "closure_groups" (
	"closure_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	CONSTRAINT "closure_groups_closure_id_group_id_pk" PRIMARY KEY("closure_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "closure_units" (
	"closure_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"exception" boolean DEFAULT false NOT NULL,
	CONSTRAINT "closure_units_closure_id_unit_id_pk" PRIMARY KEY("closure_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "closures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"mode" text NOT NULL,
	"scope" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "closures_end_check" CHECK ("closures"."end" > "closures"."start")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "economy_temperature" real DEFAULT 16 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "standby_temperature" real DEFAULT 18 NOT NULL;--> statement-breakpoint
ALTER TABLE "closure_groups" ADD CONSTRAINT "closure_groups_closure_id_closures_id_fk" FOREIGN KEY ("closure_id") REFERENCES "public"."closures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closure_groups" ADD CONSTRAINT "closure_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closure_units" ADD CONSTRAINT "closure_units_closure_id_closures_id_fk" FOREIGN KEY ("closure_id") REFERENCES "public"."closures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closure_units" ADD CONSTRAINT "closure_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "closure_groups_group_idx" ON "closure_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "closure_units_unit_idx" ON "closure_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "closures_company_end_idx" ON "closures" USING btree ("company_id","end");