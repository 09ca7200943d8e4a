ALTER TABLE "downlink_dead_letters" ALTER COLUMN "setpoint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "downlinks" ALTER COLUMN "setpoint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "relays" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "relays_at" timestamp with time zone;