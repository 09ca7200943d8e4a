-- Names sort the way people count: "Raum 2" before "Raum 10" (issue 14.7, decision 0040).
-- ICU's numeric collation, in the legacy locale spelling: PGlite's ICU ignores the BCP 47
-- keyword ('und-u-kn-true') while PostgreSQL >= 15 and PGlite both honour this one.
CREATE COLLATION IF NOT EXISTS "natural_sort" (provider = icu, locale = 'und@colNumeric=yes');--> statement-breakpoint
DROP INDEX "units_company_name_idx";--> statement-breakpoint
CREATE INDEX "units_company_name_idx" ON "units" USING btree ("company_id","name" collate "natural_sort");
