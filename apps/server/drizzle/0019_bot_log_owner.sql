DROP INDEX "bot_log_lines_hwid_id_idx";--> statement-breakpoint
-- A bot log line belongs to the PC's owner when it was written (issue 43): the lines kept so far go to
-- the PC's owner now, and those of a PC nobody holds are deleted.
ALTER TABLE "bot_log_lines" ADD COLUMN "user_id" uuid;--> statement-breakpoint
UPDATE "bot_log_lines" SET "user_id" = "users"."id" FROM "users" WHERE "users"."hwid" = "bot_log_lines"."hwid";--> statement-breakpoint
DELETE FROM "bot_log_lines" WHERE "user_id" IS NULL;--> statement-breakpoint
ALTER TABLE "bot_log_lines" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_log_lines" ADD CONSTRAINT "bot_log_lines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_log_lines_user_hwid_id_idx" ON "bot_log_lines" USING btree ("user_id","hwid","id");