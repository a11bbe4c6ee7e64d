CREATE TABLE "agent_update_deferrals" (
	"hwid" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_version_samples" (
	"at" timestamp with time zone NOT NULL,
	"version" text NOT NULL,
	"bots" integer NOT NULL,
	CONSTRAINT "agent_version_samples_at_version_pk" PRIMARY KEY("at","version")
);
--> statement-breakpoint
DROP INDEX "signing_keys_one_current_idx";--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "purpose" text DEFAULT 'lease' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "min_agent_version" text;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "rollout_state" text DEFAULT 'complete' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "rollout_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "rollout_steps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "rollout_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "rollout_halt" jsonb;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD COLUMN "yank_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_current_idx" ON "signing_keys" USING btree ("purpose","state") WHERE state = 'current';