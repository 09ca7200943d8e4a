CREATE TABLE "downlink_dead_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid,
	"device_id" text NOT NULL,
	"setpoint" real NOT NULL,
	"reason" text NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	"stage" text NOT NULL,
	"error" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downlinks" ADD COLUMN "publish_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "downlink_dead_letters_command_key" ON "downlink_dead_letters" USING btree ("device_id","applied_at","setpoint");--> statement-breakpoint
CREATE INDEX "downlink_dead_letters_company_idx" ON "downlink_dead_letters" USING btree ("company_id","updated_at");