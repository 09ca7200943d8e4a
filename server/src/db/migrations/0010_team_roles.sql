ALTER TABLE "invites" ALTER COLUMN "role" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invites" ALTER COLUMN "role" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "invite_role_choice" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "default_invite_role" text DEFAULT 'heating' NOT NULL;