CREATE TABLE "studio_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"pid" integer NOT NULL,
	"host" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "lease_instance" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "conversations_leased_idx" ON "conversations" USING btree ("lease_instance") WHERE "conversations"."lease_owner" is not null;