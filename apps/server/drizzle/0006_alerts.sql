CREATE TABLE "alert_incidents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"hwid" text,
	"rule" text NOT NULL,
	"subject" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notify_after" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"recovery_notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"bot_offline" boolean DEFAULT false NOT NULL,
	"offline_minutes" integer DEFAULT 10 NOT NULL,
	"account_error" boolean DEFAULT false NOT NULL,
	"package_expiring" boolean DEFAULT false NOT NULL,
	"payments" boolean DEFAULT false NOT NULL,
	"channel_in_app" boolean DEFAULT true NOT NULL,
	"channel_email" boolean DEFAULT false NOT NULL,
	"channel_discord" boolean DEFAULT false NOT NULL,
	"discord_webhook_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"incident_id" uuid,
	"kind" text NOT NULL,
	"rule" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alert_incidents" ADD CONSTRAINT "alert_incidents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_incident_id_alert_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."alert_incidents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_incidents_open_idx" ON "alert_incidents" USING btree ("user_id","rule","subject") WHERE "alert_incidents"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "alert_incidents_user_closed_idx" ON "alert_incidents" USING btree ("user_id","closed_at");--> statement-breakpoint
CREATE INDEX "discord_outbox_due_idx" ON "discord_outbox" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at");