ALTER TABLE "users" ADD COLUMN "released_hwid" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "released_at" timestamp with time zone;