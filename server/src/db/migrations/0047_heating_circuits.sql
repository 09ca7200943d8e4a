CREATE TABLE "heating_circuit_readings" (
	"circuit_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"enabled" boolean NOT NULL,
	"reason" text NOT NULL,
	"supply_setpoint" real,
	"curve_supply" real,
	"outdoor" real,
	"demand_percent" real NOT NULL,
	"rooms_needing_heat" real NOT NULL,
	"holding_up" jsonb NOT NULL,
	CONSTRAINT "heating_circuit_readings_circuit_id_at_pk" PRIMARY KEY("circuit_id","at")
);
--> statement-breakpoint
CREATE TABLE "heating_circuit_units" (
	"circuit_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	CONSTRAINT "heating_circuit_units_circuit_id_unit_id_pk" PRIMARY KEY("circuit_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "heating_circuits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"name" text NOT NULL,
	"generator_type" text NOT NULL,
	"design_supply" real NOT NULL,
	"design_return" real NOT NULL,
	"design_outdoor" real NOT NULL,
	"curve_supply" real NOT NULL,
	"curve_room" real NOT NULL,
	"min_supply" real NOT NULL,
	"max_supply" real NOT NULL,
	"mode" text DEFAULT 'shadow' NOT NULL,
	"control_state" jsonb,
	"next_step_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "heating_circuit_readings" ADD CONSTRAINT "heating_circuit_readings_circuit_id_heating_circuits_id_fk" FOREIGN KEY ("circuit_id") REFERENCES "public"."heating_circuits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuit_readings" ADD CONSTRAINT "heating_circuit_readings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuit_units" ADD CONSTRAINT "heating_circuit_units_circuit_id_heating_circuits_id_fk" FOREIGN KEY ("circuit_id") REFERENCES "public"."heating_circuits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuit_units" ADD CONSTRAINT "heating_circuit_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuit_units" ADD CONSTRAINT "heating_circuit_units_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuits" ADD CONSTRAINT "heating_circuits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuits" ADD CONSTRAINT "heating_circuits_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "heating_circuit_units_unit_key" ON "heating_circuit_units" USING btree ("unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "heating_circuits_building_name_key" ON "heating_circuits" USING btree ("building_id","name");--> statement-breakpoint
CREATE INDEX "heating_circuits_company_idx" ON "heating_circuits" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "heating_circuits_next_step_idx" ON "heating_circuits" USING btree ("next_step_at");