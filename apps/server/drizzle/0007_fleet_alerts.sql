CREATE TABLE "payment_webhook_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer NOT NULL,
	"accepted" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "fleet_errors" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "fleet_error_percent" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "payment_webhooks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "mail_backlog" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_webhook_calls_at_idx" ON "payment_webhook_calls" USING btree ("at");--> statement-breakpoint
CREATE INDEX "mail_outbox_waiting_idx" ON "mail_outbox" USING btree ("created_at") WHERE "mail_outbox"."sent_at" is null and "mail_outbox"."failed_at" is null;