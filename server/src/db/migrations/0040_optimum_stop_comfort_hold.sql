-- Optimum stop learns how long a switch-off keeps the room within 0.5 K (decision 0056). Models
-- learned before have no hold yet: they stop on time until their next switch-offs are learned.
ALTER TABLE "unit_warm_up_models" ADD COLUMN "comfort_hold_minutes" real;--> statement-breakpoint
ALTER TABLE "unit_warm_up_models" ADD COLUMN "comfort_holds" jsonb DEFAULT '[]'::jsonb NOT NULL;