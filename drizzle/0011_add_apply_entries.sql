ALTER TABLE "messages" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "provenance" jsonb;--> statement-breakpoint
CREATE INDEX "messages_apply_idx" ON "messages" USING btree ("thread_id","turn_index") WHERE "messages"."kind" = 'apply';