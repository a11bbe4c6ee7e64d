CREATE TABLE "bot_log_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bot_log_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hwid" text NOT NULL,
	"level" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"message" text NOT NULL,
	"origin" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bot_log_lines_hwid_id_idx" ON "bot_log_lines" USING btree ("hwid","id");--> statement-breakpoint
CREATE INDEX "bot_log_lines_received_idx" ON "bot_log_lines" USING btree ("received_at");