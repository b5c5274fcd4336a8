-- Operator tokens carry scopes and an expiry (DESIGN 9 and 10). A token made before this could do
-- everything, so it keeps every scope (narrowing it would break whoever uses it without a word); a named
-- token now stops working 90 days after this migration, the machine's local token never does.
ALTER TABLE "operator_tokens" ADD COLUMN "scopes" text[] DEFAULT array['read', 'review', 'funds', 'admin']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_tokens" ALTER COLUMN "scopes" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "operator_tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "operator_tokens" SET "expires_at" = now() + interval '90 days' WHERE NOT "is_local";--> statement-breakpoint
ALTER TABLE "operator_tokens" ADD CONSTRAINT "operator_tokens_scopes_valid" CHECK (cardinality("operator_tokens"."scopes") > 0 and "operator_tokens"."scopes" <@ array['read', 'review', 'funds', 'admin']::text[]);--> statement-breakpoint
ALTER TABLE "operator_tokens" ADD CONSTRAINT "operator_tokens_expiry_named" CHECK ("operator_tokens"."is_local" or "operator_tokens"."expires_at" is not null);
