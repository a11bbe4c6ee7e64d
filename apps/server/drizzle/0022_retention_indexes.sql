CREATE INDEX "bot_events_at_idx" ON "bot_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "bot_sessions_expires_idx" ON "bot_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "bot_sessions_revoked_idx" ON "bot_sessions" USING btree ("revoked_at");--> statement-breakpoint
CREATE INDEX "bot_commands_updated_idx" ON "bot_commands" USING btree ("updated_at");