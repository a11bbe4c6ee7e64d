CREATE TABLE "agent_release_parts" (
	"release_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "agent_release_parts_release_id_index_pk" PRIMARY KEY("release_id","index")
);
--> statement-breakpoint
CREATE TABLE "agent_releases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"channel" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"file_name" text NOT NULL,
	"size" integer,
	"sha256" text,
	"published_at" timestamp with time zone,
	"downloads" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_release_parts" ADD CONSTRAINT "agent_release_parts_release_id_agent_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."agent_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_releases" ADD CONSTRAINT "agent_releases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_releases_version_idx" ON "agent_releases" USING btree ("version");--> statement-breakpoint
CREATE INDEX "agent_releases_published_idx" ON "agent_releases" USING btree ("channel","published_at");