CREATE TABLE "discarded_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discarded_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"thread_id" text NOT NULL,
	"turn_index" integer NOT NULL,
	"kind" text NOT NULL,
	"key" uuid NOT NULL,
	"text" text NOT NULL,
	"locked" boolean,
	"done" boolean,
	"depth" integer,
	"editor" text NOT NULL,
	"discarded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "step_changes" (
	"thread_id" text NOT NULL,
	"turn_index" integer NOT NULL,
	"words_added" integer NOT NULL,
	"words_removed" integer NOT NULL,
	"items_added" integer NOT NULL,
	"items_removed" integer NOT NULL,
	"items_edited" integer NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "step_changes_thread_id_turn_index_pk" PRIMARY KEY("thread_id","turn_index")
);
--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "preferences" ADD COLUMN "key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "todos" ADD COLUMN "key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "discarded_items" ADD CONSTRAINT "discarded_items_thread_id_conversations_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."conversations"("thread_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_changes" ADD CONSTRAINT "step_changes_thread_id_conversations_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."conversations"("thread_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discarded_items_thread_turn_idx" ON "discarded_items" USING btree ("thread_id","turn_index");