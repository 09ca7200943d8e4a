ALTER TABLE "companies" ADD COLUMN "second_factor_required" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "remember_device_days" integer DEFAULT 0 NOT NULL;