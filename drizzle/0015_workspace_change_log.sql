CREATE TABLE "workspace_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workspace_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"thread_id" text NOT NULL,
	"seq" integer NOT NULL,
	"turn" integer NOT NULL,
	"actor" text NOT NULL,
	"actor_id" text,
	"via" text NOT NULL,
	"via_source" text,
	"kind" text NOT NULL,
	"key" text,
	"op" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_changes_thread_seq_key" UNIQUE("thread_id","seq")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "preferences" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "todos" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_branches" ADD COLUMN "parent_change_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_changes" ADD CONSTRAINT "workspace_changes_thread_id_conversations_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."conversations"("thread_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_changes_thread_turn_idx" ON "workspace_changes" USING btree ("thread_id","turn","seq");--> statement-breakpoint
CREATE INDEX "workspace_changes_document_idx" ON "workspace_changes" USING btree ("thread_id","seq") WHERE "workspace_changes"."kind" in ('document', 'document_title');--> statement-breakpoint
CREATE INDEX "workspace_changes_document_version_idx" ON "workspace_changes" USING btree ("thread_id",(("after"->>'version')::int)) WHERE "workspace_changes"."kind" in ('document', 'document_title');--> statement-breakpoint
CREATE INDEX "workspace_changes_item_idx" ON "workspace_changes" USING btree ("thread_id","key") WHERE "workspace_changes"."key" is not null;--> statement-breakpoint
-- Existing documents: one `migration` change each (actor system, from version 0), so replaying a
-- thread's log from empty gives its current text; the text's author is `unknown`, never a guess.
-- Existing branches inherit nothing (parent_change_seq 0): their own migration change holds their text.
INSERT INTO "workspace_changes" ("thread_id", "seq", "turn", "actor", "actor_id", "via", "via_source", "kind", "key", "op", "before", "after")
SELECT d."thread_id", 1, c."turn_index", 'system', NULL, 'migration', NULL, 'document', NULL, 'patch',
  jsonb_build_object('version', 0),
  jsonb_build_object('version', 1, 'patch', jsonb_build_array(jsonb_build_object('i', d."content")))
FROM "documents" d JOIN "conversations" c ON c."thread_id" = d."thread_id"
WHERE d."content" <> '';--> statement-breakpoint
UPDATE "documents" SET "version" = 1 WHERE "content" <> '';
