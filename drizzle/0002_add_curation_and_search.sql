ALTER TABLE "conversations" ADD COLUMN "is_title_provisional" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "is_starred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "is_archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_content_fts_idx" ON "messages" USING gin (to_tsvector('english'::regconfig, left("content", 100000)));--> statement-breakpoint
CREATE INDEX "document_blobs_content_fts_idx" ON "document_blobs" USING gin (to_tsvector('english'::regconfig, left("content", 100000)));--> statement-breakpoint
CREATE INDEX "documents_content_fts_idx" ON "documents" USING gin (to_tsvector('english'::regconfig, left("content", 100000)));--> statement-breakpoint
CREATE INDEX "preferences_text_fts_idx" ON "preferences" USING gin (to_tsvector('english'::regconfig, left("text", 100000)));--> statement-breakpoint
CREATE INDEX "todos_text_fts_idx" ON "todos" USING gin (to_tsvector('english'::regconfig, left("text", 100000)));