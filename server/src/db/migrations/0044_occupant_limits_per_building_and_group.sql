ALTER TABLE "buildings" ADD COLUMN "occupant_max_temperature" real;--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "occupant_band" real;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "occupant_max_temperature" real;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "occupant_band" real;