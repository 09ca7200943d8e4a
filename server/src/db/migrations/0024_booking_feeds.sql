CREATE TABLE "booking_feed_units" (
	"feed_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	CONSTRAINT "booking_feed_units_feed_id_unit_id_pk" PRIMARY KEY("feed_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "booking_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password" text,
	"min_duration_minutes" integer DEFAULT 0 NOT NULL,
	"ignore_keyword" text DEFAULT '' NOT NULL,
	"preheat_minutes" integer DEFAULT 30 NOT NULL,
	"temperature" real,
	"last_sync_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"booking_count" integer DEFAULT 0 NOT NULL,
	"content_hash" text DEFAULT '' NOT NULL,
	"next_sync_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"feed_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"recurrence_id" text DEFAULT '' NOT NULL,
	"title" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"heats" boolean NOT NULL,
	CONSTRAINT "bookings_end_check" CHECK ("bookings"."end" > "bookings"."start")
);
--> statement-breakpoint
ALTER TABLE "booking_feed_units" ADD CONSTRAINT "booking_feed_units_feed_id_booking_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."booking_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_feed_units" ADD CONSTRAINT "booking_feed_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_feeds" ADD CONSTRAINT "booking_feeds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_feeds" ADD CONSTRAINT "booking_feeds_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_feeds" ADD CONSTRAINT "booking_feeds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_feed_id_booking_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."booking_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_feed_units_unit_idx" ON "booking_feed_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "booking_feeds_company_idx" ON "booking_feeds" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "booking_feeds_unit_idx" ON "booking_feeds" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "booking_feeds_next_sync_idx" ON "booking_feeds" USING btree ("next_sync_at");--> statement-breakpoint
CREATE INDEX "bookings_feed_start_idx" ON "bookings" USING btree ("feed_id","start");