CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"protocol" text DEFAULT 'lorawan' NOT NULL,
	"dev_eui" text,
	"join_eui" text,
	"app_key_encrypted" text,
	"app_key_last4" text,
	"model" text NOT NULL,
	"unit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"last_seen" timestamp with time zone,
	"battery" real,
	"battery_unit" text,
	"last_rssi" real,
	"last_snr" real,
	CONSTRAINT "devices_id_length" CHECK (char_length("devices"."id") between 1 and 16),
	CONSTRAINT "devices_lorawan_dev_eui" CHECK ("devices"."protocol" <> 'lorawan' or ("devices"."dev_eui" = "devices"."id" and "devices"."id" ~ '^[0-9a-f]{16}$'))
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"gateway_eui" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"last_seen" timestamp with time zone,
	"stats_interval_s" integer DEFAULT 30 NOT NULL,
	CONSTRAINT "gateways_gateway_eui_hex" CHECK ("gateways"."gateway_eui" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "gateways_stats_interval_positive" CHECK ("gateways"."stats_interval_s" > 0)
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "devices_dev_eui_key" ON "devices" USING btree ("dev_eui");--> statement-breakpoint
CREATE INDEX "devices_company_created_idx" ON "devices" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "devices_unit_idx" ON "devices" USING btree ("unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_gateway_eui_key" ON "gateways" USING btree ("gateway_eui");--> statement-breakpoint
CREATE INDEX "gateways_company_idx" ON "gateways" USING btree ("company_id");