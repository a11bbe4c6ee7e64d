-- Stored answers may hold secrets in clear (recovery codes, TOTP secrets, bot keys): none is kept (issue 30).
DELETE FROM "idempotency_keys";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_key_route_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "session_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_session_id_key_route_pk" PRIMARY KEY("user_id","session_id","key","route");
