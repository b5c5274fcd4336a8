CREATE TABLE "list_daily" (
	"list" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"status" text NOT NULL,
	"facet" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"rows" bigint NOT NULL,
	"a" bigint NOT NULL,
	"b" bigint NOT NULL,
	"c" bigint NOT NULL,
	CONSTRAINT "list_daily_merchant_id_list_status_facet_day_pk" PRIMARY KEY("merchant_id","list","status","facet","day"),
	CONSTRAINT "list_daily_list_valid" CHECK ("list_daily"."list" in ('recharge', 'withdrawal', 'settlement'))
);
--> statement-breakpoint
ALTER TABLE "list_daily" ADD CONSTRAINT "list_daily_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_daily_merchant_list_day_idx" ON "list_daily" USING btree ("merchant_id","list","day");--> statement-breakpoint
-- No change counted in list_hourly may miss list_daily: writers wait while the days are summed and the
-- function that keeps both takes over.
LOCK TABLE "list_hourly" IN EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO list_daily (list, merchant_id, status, facet, day, rows, a, b, c)
SELECT list, merchant_id, status, facet, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
       sum(rows), sum(a), sum(b), sum(c)
FROM list_hourly GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "list_hourly_add"(p_list text, p_merchant bigint, p_status text, p_facet text, p_at timestamptz,
                                             p_rows bigint, p_a bigint, p_b bigint, p_c bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO list_hourly AS l (list, merchant_id, status, facet, hour, rows, a, b, c)
  VALUES (p_list, p_merchant, p_status, p_facet, date_bin('1 hour', p_at, timestamptz '2000-01-01 00:00:00+00'),
          p_rows, p_a, p_b, p_c)
  ON CONFLICT (merchant_id, list, status, facet, hour) DO UPDATE
    SET rows = l.rows + excluded.rows, a = l.a + excluded.a, b = l.b + excluded.b, c = l.c + excluded.c;
  INSERT INTO list_daily AS l (list, merchant_id, status, facet, day, rows, a, b, c)
  VALUES (p_list, p_merchant, p_status, p_facet, date_bin('1 day', p_at, timestamptz '2000-01-01 00:00:00+00'),
          p_rows, p_a, p_b, p_c)
  ON CONFLICT (merchant_id, list, status, facet, day) DO UPDATE
    SET rows = l.rows + excluded.rows, a = l.a + excluded.a, b = l.b + excluded.b, c = l.c + excluded.c;
$$;
