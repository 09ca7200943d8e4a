CREATE TABLE "heating_circuit_writes" (
	"circuit_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"enabled" boolean NOT NULL,
	"supply_setpoint" real,
	"ok" boolean NOT NULL,
	"detail" text NOT NULL,
	"read_back_enabled" boolean,
	"read_back_setpoint" real,
	"override" boolean DEFAULT false NOT NULL,
	CONSTRAINT "heating_circuit_writes_circuit_id_at_pk" PRIMARY KEY("circuit_id","at")
);
--> statement-breakpoint
ALTER TABLE "heating_circuits" ADD COLUMN "output" jsonb;--> statement-breakpoint
ALTER TABLE "heating_circuit_writes" ADD CONSTRAINT "heating_circuit_writes_circuit_id_heating_circuits_id_fk" FOREIGN KEY ("circuit_id") REFERENCES "public"."heating_circuits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heating_circuit_writes" ADD CONSTRAINT "heating_circuit_writes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heating_circuit_writes_company_idx" ON "heating_circuit_writes" USING btree ("company_id","at");