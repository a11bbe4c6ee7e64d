ALTER TABLE "discord_outbox" ALTER COLUMN "url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "discord_webhook_sealed" text;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "discord_webhook_digest" text;--> statement-breakpoint
ALTER TABLE "discord_outbox" ADD COLUMN "url_sealed" text;--> statement-breakpoint
ALTER TABLE "discord_outbox" ADD COLUMN "webhook_digest" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "body_sealed" text;--> statement-breakpoint
-- Sent or given-up rows keep no body nor webhook (the links in them are spent); waiting ones are
-- sealed under the master key at the first start, which SQL cannot do (secrets-at-rest.ts).
UPDATE "mail_outbox" SET "text" = NULL, "html" = NULL WHERE "sent_at" IS NOT NULL OR "failed_at" IS NOT NULL;--> statement-breakpoint
UPDATE "discord_outbox" SET "url" = NULL WHERE "sent_at" IS NOT NULL OR "failed_at" IS NOT NULL;
