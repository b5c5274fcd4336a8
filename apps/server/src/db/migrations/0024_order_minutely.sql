-- Orders by minute for the hours before the 'order_minute' horizon (db/schema order_minutely): the
-- housekeeping sweep writes each closed hour's rows from its orders (closeOrderMinutes), beginning at the
-- first sweep after this migration; until then the sums read the orders as before.
CREATE TABLE "order_minutely" (
	"kind" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"status" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"orders" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	CONSTRAINT "order_minutely_merchant_id_kind_status_minute_pk" PRIMARY KEY("merchant_id","kind","status","minute"),
	CONSTRAINT "order_minutely_kind_valid" CHECK ("order_minutely"."kind" in ('collection', 'payout'))
);
--> statement-breakpoint
ALTER TABLE "order_minutely" ADD CONSTRAINT "order_minutely_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_minutely_merchant_kind_minute_idx" ON "order_minutely" USING btree ("merchant_id","kind","minute");--> statement-breakpoint
-- An order's count, amount and fee (negative: taken out) added to its minute's row.
CREATE FUNCTION "order_minutely_add"(add_kind text, add_merchant bigint, add_status text, add_at timestamptz,
                                     add_orders integer, add_amount bigint, add_fee bigint)
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_minutely AS o (kind, merchant_id, status, minute, orders, amount_minor, fee_minor)
  VALUES (add_kind, add_merchant, add_status, date_bin('1 minute', add_at, timestamptz '2000-01-01 00:00:00+00'),
          add_orders, add_amount, add_fee)
  ON CONFLICT (merchant_id, kind, status, minute) DO UPDATE
    SET orders = o.orders + excluded.orders,
        amount_minor = o.amount_minor + excluded.amount_minor,
        fee_minor = o.fee_minor + excluded.fee_minor;
$$;
--> statement-breakpoint
-- A change to an order of an hour already closed into minutes adds itself to them, in the same deferred
-- trigger as its hour. Which hours are closed is read under a shared advisory lock (7246004) that the close
-- takes exclusively: a close never runs between a change's reading of the horizon and its commit. A close
-- writes only hours over an hour before it starts, and waits for every transaction begun before their
-- end; so an order created in the last 50 minutes, by the database's clock, is never in a closed hour,
-- and the changes of fresh orders (nearly all of them) take no lock.
CREATE OR REPLACE FUNCTION "order_hourly_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  order_kind text := TG_ARGV[0];
  closed timestamptz;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO order_hourly AS o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
    VALUES (order_kind, OLD.merchant_id, OLD.status,
            date_bin('1 hour', OLD.created_at, timestamptz '2000-01-01 00:00:00+00'), 1 + OLD.id % 16,
            -1, -OLD.amount_minor, -OLD.fee_minor)
    ON CONFLICT (merchant_id, kind, status, hour, slot) DO UPDATE
      SET orders = o.orders + excluded.orders,
          amount_minor = o.amount_minor + excluded.amount_minor,
          fee_minor = o.fee_minor + excluded.fee_minor;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO order_hourly AS o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
    VALUES (order_kind, NEW.merchant_id, NEW.status,
            date_bin('1 hour', NEW.created_at, timestamptz '2000-01-01 00:00:00+00'), 1 + NEW.id % 16,
            1, NEW.amount_minor, NEW.fee_minor)
    ON CONFLICT (merchant_id, kind, status, hour, slot) DO UPDATE
      SET orders = o.orders + excluded.orders,
          amount_minor = o.amount_minor + excluded.amount_minor,
          fee_minor = o.fee_minor + excluded.fee_minor;
  END IF;
  IF (TG_OP <> 'INSERT' AND OLD.created_at < clock_timestamp() - interval '50 minutes')
     OR (TG_OP <> 'DELETE' AND NEW.created_at < clock_timestamp() - interval '50 minutes') THEN
    PERFORM pg_advisory_xact_lock_shared(7246004);
    SELECT before INTO closed FROM rollup_horizons WHERE rollup = 'order_minute';
    IF TG_OP <> 'INSERT' AND OLD.created_at < closed THEN
      PERFORM order_minutely_add(order_kind, OLD.merchant_id, OLD.status, OLD.created_at, -1,
                                 -OLD.amount_minor, -OLD.fee_minor);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.created_at < closed THEN
      PERFORM order_minutely_add(order_kind, NEW.merchant_id, NEW.status, NEW.created_at, 1,
                                 NEW.amount_minor, NEW.fee_minor);
    END IF;
  END IF;
  RETURN NULL;
END $$;
