CREATE TABLE "list_hourly" (
	"list" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"status" text NOT NULL,
	"facet" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"rows" bigint NOT NULL,
	"a" bigint NOT NULL,
	"b" bigint NOT NULL,
	"c" bigint NOT NULL,
	CONSTRAINT "list_hourly_merchant_id_list_status_facet_hour_pk" PRIMARY KEY("merchant_id","list","status","facet","hour"),
	CONSTRAINT "list_hourly_list_valid" CHECK ("list_hourly"."list" in ('recharge', 'withdrawal', 'settlement'))
);
--> statement-breakpoint
ALTER TABLE "list_hourly" ADD CONSTRAINT "list_hourly_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_hourly_merchant_list_hour_idx" ON "list_hourly" USING btree ("merchant_id","list","hour");--> statement-breakpoint
-- Keeps list_hourly in step with top-ups, withdrawals and settlements, in the transaction of each change:
-- an insert counts the row under its status and facet, a change moves it, a delete takes it out.
CREATE FUNCTION "list_hourly_add"(p_list text, p_merchant bigint, p_status text, p_facet text, p_at timestamptz,
                                  p_rows bigint, p_a bigint, p_b bigint, p_c bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO list_hourly AS l (list, merchant_id, status, facet, hour, rows, a, b, c)
  VALUES (p_list, p_merchant, p_status, p_facet, date_bin('1 hour', p_at, timestamptz '2000-01-01 00:00:00+00'),
          p_rows, p_a, p_b, p_c)
  ON CONFLICT (merchant_id, list, status, facet, hour) DO UPDATE
    SET rows = l.rows + excluded.rows, a = l.a + excluded.a, b = l.b + excluded.b, c = l.c + excluded.c;
$$;
--> statement-breakpoint
CREATE FUNCTION "recharges_list_hourly"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM list_hourly_add('recharge', OLD.merchant_id, OLD.status, OLD.network, OLD.created_at,
                            -1, -OLD.amount_minor, -coalesce(OLD.credited_minor, 0), 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM list_hourly_add('recharge', NEW.merchant_id, NEW.status, NEW.network, NEW.created_at,
                            1, NEW.amount_minor, coalesce(NEW.credited_minor, 0), 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "recharges_list_hourly" AFTER INSERT OR DELETE ON "recharges"
  FOR EACH ROW EXECUTE FUNCTION recharges_list_hourly();
--> statement-breakpoint
CREATE TRIGGER "recharges_list_hourly_update"
  AFTER UPDATE OF merchant_id, status, network, created_at, amount_minor, credited_minor ON "recharges"
  FOR EACH ROW WHEN (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.network IS DISTINCT FROM NEW.network OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor OR OLD.credited_minor IS DISTINCT FROM NEW.credited_minor)
  EXECUTE FUNCTION recharges_list_hourly();
--> statement-breakpoint
CREATE FUNCTION "withdrawals_list_hourly"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM list_hourly_add('withdrawal', OLD.merchant_id, OLD.status, OLD.network, OLD.created_at,
                            -1, -OLD.amount_usdt_minor, -OLD.fee_usdt_minor,
                            -(OLD.amount_local_minor + OLD.fee_local_minor));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM list_hourly_add('withdrawal', NEW.merchant_id, NEW.status, NEW.network, NEW.created_at,
                            1, NEW.amount_usdt_minor, NEW.fee_usdt_minor, NEW.amount_local_minor + NEW.fee_local_minor);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "withdrawals_list_hourly" AFTER INSERT OR DELETE ON "withdrawals"
  FOR EACH ROW EXECUTE FUNCTION withdrawals_list_hourly();
--> statement-breakpoint
CREATE TRIGGER "withdrawals_list_hourly_update"
  AFTER UPDATE OF merchant_id, status, network, created_at, amount_usdt_minor, fee_usdt_minor, amount_local_minor,
    fee_local_minor ON "withdrawals"
  FOR EACH ROW WHEN (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.network IS DISTINCT FROM NEW.network OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.amount_usdt_minor IS DISTINCT FROM NEW.amount_usdt_minor OR OLD.fee_usdt_minor IS DISTINCT FROM NEW.fee_usdt_minor
    OR OLD.amount_local_minor IS DISTINCT FROM NEW.amount_local_minor
    OR OLD.fee_local_minor IS DISTINCT FROM NEW.fee_local_minor)
  EXECUTE FUNCTION withdrawals_list_hourly();
--> statement-breakpoint
CREATE FUNCTION "settlements_list_hourly"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM list_hourly_add('settlement', OLD.merchant_id, OLD.status, OLD.channel_code, OLD.created_at,
                            -1, -OLD.gross_minor, -OLD.fee_minor, -OLD.net_minor);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM list_hourly_add('settlement', NEW.merchant_id, NEW.status, NEW.channel_code, NEW.created_at,
                            1, NEW.gross_minor, NEW.fee_minor, NEW.net_minor);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "settlements_list_hourly" AFTER INSERT OR DELETE ON "settlements"
  FOR EACH ROW EXECUTE FUNCTION settlements_list_hourly();
--> statement-breakpoint
CREATE TRIGGER "settlements_list_hourly_update"
  AFTER UPDATE OF merchant_id, status, channel_code, created_at, gross_minor, fee_minor, net_minor ON "settlements"
  FOR EACH ROW WHEN (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.channel_code IS DISTINCT FROM NEW.channel_code OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.gross_minor IS DISTINCT FROM NEW.gross_minor OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor
    OR OLD.net_minor IS DISTINCT FROM NEW.net_minor)
  EXECUTE FUNCTION settlements_list_hourly();
--> statement-breakpoint
-- The rows already written.
INSERT INTO list_hourly (list, merchant_id, status, facet, hour, rows, a, b, c)
SELECT 'recharge', merchant_id, status, network, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
       count(*), sum(amount_minor), sum(coalesce(credited_minor, 0)), 0
FROM recharges GROUP BY 2, 3, 4, 5
UNION ALL
SELECT 'withdrawal', merchant_id, status, network, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
       count(*), sum(amount_usdt_minor), sum(fee_usdt_minor), sum(amount_local_minor + fee_local_minor)
FROM withdrawals GROUP BY 2, 3, 4, 5
UNION ALL
SELECT 'settlement', merchant_id, status, channel_code,
       date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
       count(*), sum(gross_minor), sum(fee_minor), sum(net_minor)
FROM settlements GROUP BY 2, 3, 4, 5;
