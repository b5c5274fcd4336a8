import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';

// The database as it was at an earlier migration: a folder holding the first migrations only, so a test
// can populate it as that version did, then apply the rest (the ones that must work on a populated
// database).

export const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/db/migrations');
type JournalEntry = { idx: number; tag: string; when: number; version: string; breakpoints: boolean };
export const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
  entries: JournalEntry[];
  [key: string]: unknown;
};

/** The index of the migration whose tag starts with `prefix` ("0032_"). */
export const migrationIndex = (prefix: string) => journal.entries.findIndex((e) => e.tag.startsWith(prefix));

/** A migrations folder holding the first `count` migrations: the database as it was at that point. */
export function folderUpTo(folder: string, count: number) {
  mkdirSync(path.join(folder, 'meta'), { recursive: true });
  for (const entry of journal.entries.slice(0, count)) {
    cpSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  writeFileSync(
    path.join(folder, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }),
  );
}

/**
 * Today's code writes columns and reads tables that migrations after `folderUpTo`'s cut add (0033:
 * channels.settings and secrets; 0036: the order's refunded amount and the daily reports' refunds; 0037: the
 * limits' tables, empty; 0038: channels' routing and health; 0041: users' locale and notifications; 0042: the
 * orders' routed and the attempts' channel_fault; 0043: payout approval's columns and settings; 0044: users'
 * disabled_at). A test populating an older database with today's code borrows them, and gives them back
 * before the later migrations run and add them for good.
 */
export const LATER_COLUMNS = {
  lend: sql`do $$ begin alter table channels add column settings jsonb not null default '{}', add column secrets text,
    add column priority integer not null default 0, add column weight integer not null default 100,
    add column cooldown_until timestamptz, add column health_since timestamptz;
    alter table collections add column refunded_minor bigint not null default 0,
      add column routed boolean not null default false;
    alter table payouts add column routed boolean not null default false;
    alter table channel_attempts add column channel_fault boolean not null default false;
    alter table daily_reports add column collection_refunds_minor bigint not null default 0;
    create table merchant_limits (id bigint primary key generated always as identity, merchant_id bigint not null,
      kind text not null, per_order_min_minor bigint, per_order_max_minor bigint, daily_amount_minor bigint,
      daily_count integer, payee_daily_count integer, updated_by text not null,
      updated_at timestamptz not null default now(), unique (merchant_id, kind));
    create table merchant_blocks (id bigint primary key generated always as identity, merchant_id bigint not null,
      list text not null, value text not null, created_by text not null, reason text not null,
      created_at timestamptz not null default now(), unique (merchant_id, list, value));
    create table limit_usage (merchant_id bigint not null, kind text not null, day date not null,
      subject text not null default '', amount_minor bigint not null default 0, count integer not null default 0,
      primary key (merchant_id, kind, day, subject));
    alter table users add column locale text not null default 'en';
    create table notifications (id bigint primary key generated always as identity, merchant_id bigint not null,
      user_id bigint not null, type text not null, params jsonb not null, created_at timestamptz not null,
      read_at timestamptz);
    alter table payouts add column reviewed_by_user_id bigint, add column reviewed_at timestamptz;
    create table payout_approval_settings (merchant_id bigint primary key,
      console_threshold_minor bigint not null default 0, gateway_threshold_minor bigint not null default 0,
      updated_by_user_id bigint, updated_at timestamptz not null default now());
    alter table users add column disabled_at timestamptz; end $$`,
  giveBack: sql`do $$ begin alter table channels drop column settings, drop column secrets, drop column priority,
    drop column weight, drop column cooldown_until, drop column health_since;
    alter table collections drop column refunded_minor, drop column routed;
    alter table payouts drop column routed;
    alter table channel_attempts drop column channel_fault;
    alter table daily_reports drop column collection_refunds_minor;
    drop table merchant_limits, merchant_blocks, limit_usage;
    alter table users drop column locale; drop table notifications;
    alter table payouts drop column reviewed_by_user_id, drop column reviewed_at;
    drop table payout_approval_settings;
    alter table users drop column disabled_at; end $$`,
};
