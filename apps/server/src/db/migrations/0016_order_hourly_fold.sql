-- The housekeeping job folds the 16 slots of each past hour of order_hourly into slot 0
-- (db/order-totals.ts foldOrderHourlySlots); this index finds the rows still to fold: the current hours'.
CREATE INDEX "order_hourly_unfolded_idx" ON "order_hourly" USING btree ("hour") WHERE "order_hourly"."slot" <> 0;