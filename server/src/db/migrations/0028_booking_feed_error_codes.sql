ALTER TABLE "booking_feeds" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "booking_feeds" ADD COLUMN "last_error_params" jsonb;