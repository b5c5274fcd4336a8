-- Slot 0 of order_hourly is housekeeping's alone (db/order-totals.ts foldOrderHourlySlots): a day row of
-- order_daily is the sum of its hours' slot-0 rows only while nothing else writes them. The fold marks its
-- transaction (paydesk.folding); any other insert or update of a slot-0 row is refused. This also stops a
-- process of an earlier version, whose fold knows nothing of order_daily, from folding into slot 0 while
-- a newer one runs beside it: its housekeeping fails and logs, and changes nothing.
CREATE FUNCTION "order_hourly_slot0_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('paydesk.folding', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'Only the housekeeping fold writes slot 0 of order_hourly.';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "order_hourly_slot0_guard" BEFORE INSERT OR UPDATE ON "order_hourly"
  FOR EACH ROW WHEN (NEW.slot = 0) EXECUTE FUNCTION order_hourly_slot0_guard();
