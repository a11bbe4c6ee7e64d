CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_current_idx" ON "signing_keys" USING btree ("state") WHERE state = 'current';