CREATE TABLE "key_sets" (
	"version" integer PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"root_kid" text NOT NULL,
	"root_public_jwk" jsonb NOT NULL,
	"is_development_root" boolean NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "revocation_statement" text;