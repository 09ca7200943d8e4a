ALTER TABLE "downlink_dead_letters" ALTER COLUMN "setpoint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "downlinks" ALTER COLUMN "setpoint" DROP NOT NULL;