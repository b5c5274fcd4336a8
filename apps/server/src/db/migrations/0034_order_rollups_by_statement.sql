-- Orders changed by the thousand in one transaction (a statement import pays them, deleting a merchant's
-- test data removes them) were counted by one trigger an order: the same few slot rows of order_hourly
-- updated thousands of times in one transaction, each update slower than the last (100,000 orders paid:
-- 212 s; 40,000 deleted: 5 s). Such a change now counts its orders itself, grouped, in one statement
-- (order_rollups_moved below; lists/order-rollups.ts deleteOrdersCounted), and the row triggers stand
-- aside while it runs: the transaction's setting paydesk.order_rollups = 'by_caller', read by each
-- trigger's WHEN as the row changes (not at the commit).
-- Migrations run in one transaction: an earlier one's changes of orders (0032 moves orders to their test
-- twin) wait for these triggers at the commit, and would be lost with the triggers. Counted now.
SET CONSTRAINTS "collections_order_hourly", "collections_order_hourly_update", "payouts_order_hourly",
  "payouts_order_hourly_update" IMMEDIATE;
--> statement-breakpoint
DROP TRIGGER "collections_order_hourly" ON "collections";
--> statement-breakpoint
DROP TRIGGER "payouts_order_hourly" ON "payouts";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "collections_order_hourly" AFTER INSERT OR DELETE ON "collections"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (current_setting('paydesk.order_rollups', true) IS DISTINCT FROM 'by_caller')
  EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payouts_order_hourly" AFTER INSERT OR DELETE ON "payouts"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (current_setting('paydesk.order_rollups', true) IS DISTINCT FROM 'by_caller')
  EXECUTE FUNCTION order_hourly_apply('payout');
--> statement-breakpoint
DROP TRIGGER "collections_order_hourly_update" ON "collections";
--> statement-breakpoint
DROP TRIGGER "payouts_order_hourly_update" ON "payouts";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "collections_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "collections"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
    AND current_setting('paydesk.order_rollups', true) IS DISTINCT FROM 'by_caller')
  EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payouts_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "payouts"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
    AND current_setting('paydesk.order_rollups', true) IS DISTINCT FROM 'by_caller')
  EXECUTE FUNCTION order_hourly_apply('payout');
--> statement-breakpoint
-- Orders (ids) of one kind that moved from one status to the one they hold now, their amounts and
-- creation times unchanged: each group of (merchant, status, hour, slot) counted once, in order_hourly,
-- and in order_minutely for the hours already closed into minutes (read under the shared lock the close
-- takes exclusively, as order_hourly_apply does).
CREATE FUNCTION "order_rollups_moved"(move_kind text, from_status text, ids bigint[])
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  orders_table text := CASE move_kind WHEN 'collection' THEN 'collections' WHEN 'payout' THEN 'payouts' END;
  oldest timestamptz;
  closed timestamptz;
BEGIN
  IF orders_table IS NULL THEN
    RAISE EXCEPTION 'order_rollups_moved: unknown kind %', move_kind;
  END IF;
  EXECUTE format($q$
    INSERT INTO order_hourly AS o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
    SELECT %L, c.merchant_id, m.status,
           date_bin('1 hour', c.created_at, timestamptz '2000-01-01 00:00:00+00'), 1 + c.id %% 16,
           sum(m.sign), sum(m.sign * c.amount_minor), sum(m.sign * c.fee_minor)
      FROM %I c CROSS JOIN LATERAL (VALUES ($2, -1), (c.status, 1)) AS m(status, sign)
     WHERE c.id = ANY($1) AND c.status <> $2
     GROUP BY 2, 3, 4, 5
    ON CONFLICT (merchant_id, kind, status, hour, slot) DO UPDATE
      SET orders = o.orders + excluded.orders,
          amount_minor = o.amount_minor + excluded.amount_minor,
          fee_minor = o.fee_minor + excluded.fee_minor$q$, move_kind, orders_table)
  USING ids, from_status;
  EXECUTE format('SELECT min(created_at) FROM %I WHERE id = ANY($1) AND status <> $2', orders_table)
    INTO oldest USING ids, from_status;
  IF oldest < clock_timestamp() - interval '50 minutes' THEN
    PERFORM pg_advisory_xact_lock_shared(7246004);
    SELECT before INTO closed FROM rollup_horizons WHERE rollup = 'order_minute';
    IF oldest < closed THEN
      EXECUTE format($q$
        INSERT INTO order_minutely AS o (kind, merchant_id, status, minute, orders, amount_minor, fee_minor)
        SELECT %L, c.merchant_id, m.status,
               date_bin('1 minute', c.created_at, timestamptz '2000-01-01 00:00:00+00'),
               sum(m.sign), sum(m.sign * c.amount_minor), sum(m.sign * c.fee_minor)
          FROM %I c CROSS JOIN LATERAL (VALUES ($2, -1), (c.status, 1)) AS m(status, sign)
         WHERE c.id = ANY($1) AND c.status <> $2 AND c.created_at < $3
         GROUP BY 2, 3, 4
        ON CONFLICT (merchant_id, kind, status, minute) DO UPDATE
          SET orders = o.orders + excluded.orders,
              amount_minor = o.amount_minor + excluded.amount_minor,
              fee_minor = o.fee_minor + excluded.fee_minor$q$, move_kind, orders_table)
      USING ids, from_status, closed;
    END IF;
  END IF;
END $$;
