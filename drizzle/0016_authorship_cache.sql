CREATE TABLE "authorship_cache" (
	"thread_id" text NOT NULL,
	"seq" integer NOT NULL,
	"turn" integer NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"spans" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authorship_cache_thread_id_seq_pk" PRIMARY KEY("thread_id","seq")
);
--> statement-breakpoint
ALTER TABLE "authorship_cache" ADD CONSTRAINT "authorship_cache_thread_id_conversations_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."conversations"("thread_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorship_cache_thread_turn_idx" ON "authorship_cache" USING btree ("thread_id","turn","seq");