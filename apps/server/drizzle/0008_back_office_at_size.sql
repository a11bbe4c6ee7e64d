-- pg_trgm: PostgreSQL's contrib (a trusted extension: the database owner may create it); PGlite
-- loads it from @electric-sql/pglite/contrib (db/client.ts, PGLITE_EXTENSIONS). docs/decisions/405.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "audit_actor_idx";--> statement-breakpoint
CREATE INDEX "audit_actor_at_idx" ON "audit_log" USING btree ("actor_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_actor_name_at_idx" ON "audit_log" USING btree (lower("actor_username"),"at","id");--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_discord_id_trgm_idx" ON "users" USING gin ("discord_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_hwid_trgm_idx" ON "users" USING gin ("hwid" gin_trgm_ops);