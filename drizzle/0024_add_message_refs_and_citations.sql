ALTER TABLE "messages" ADD COLUMN "refs" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "citations" jsonb;