ALTER TABLE "companies" ADD COLUMN "occupant_max_temperature" real DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "occupant_band" real DEFAULT 2;