-- The scheduler writes thousands of heating log entries per batch, for units it holds locked;
-- checking each entry's unit key cost a sixth of its tick (decision 0073). The key goes, and a
-- statement trigger keeps its cascade: deleting units (one by one or with their company)
-- deletes their entries in one statement.
ALTER TABLE "heating_log" DROP CONSTRAINT "heating_log_unit_id_units_id_fk";--> statement-breakpoint
CREATE FUNCTION heating_log_of_deleted_units() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM heating_log l USING deleted_units d WHERE l.unit_id = d.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER units_delete_heating_log AFTER DELETE ON units
  REFERENCING OLD TABLE AS deleted_units
  FOR EACH STATEMENT EXECUTE FUNCTION heating_log_of_deleted_units();
