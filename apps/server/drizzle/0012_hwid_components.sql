CREATE TABLE "hwid_components" (
	"user_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"hwid" text NOT NULL,
	"components" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hwid_components_user_id_slot_pk" PRIMARY KEY("user_id","slot")
);
--> statement-breakpoint
ALTER TABLE "hwid_components" ADD CONSTRAINT "hwid_components_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;