CREATE TABLE "alert_digest_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"day" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"message" text NOT NULL,
	"scope" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alert_incidents" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "reminder_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "email_digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "email_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "email_last_error" text;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "discord_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD COLUMN "discord_last_error" text;--> statement-breakpoint
ALTER TABLE "alert_digest_entries" ADD CONSTRAINT "alert_digest_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_digest_entries_day_idx" ON "alert_digest_entries" USING btree ("day","user_id");--> statement-breakpoint
CREATE INDEX "maintenance_windows_ends_idx" ON "maintenance_windows" USING btree ("ends_at");