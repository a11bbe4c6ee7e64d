CREATE TABLE "bot_commands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hwid" text NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text NOT NULL,
	"message" text,
	"issuer_id" uuid,
	"issuer_username" text,
	"issued_by_staff" boolean NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_commands" ADD CONSTRAINT "bot_commands_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_commands_hwid_created_idx" ON "bot_commands" USING btree ("hwid","created_at");--> statement-breakpoint
CREATE INDEX "bot_commands_state_expires_idx" ON "bot_commands" USING btree ("state","expires_at");