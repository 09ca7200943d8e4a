ALTER TABLE "companies" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_street" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_postcode" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_city" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_country" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_vat_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "seller_details" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer_details" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "vat_percent" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "vat_cents" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "gross_cents" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "checkout_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "checked_out_at" timestamp with time zone;