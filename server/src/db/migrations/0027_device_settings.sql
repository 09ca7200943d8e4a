ALTER TABLE "devices" ADD COLUMN "firmware" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "anti_freeze" jsonb;