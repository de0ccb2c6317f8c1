ALTER TABLE "messages" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "retry_after_s" double precision;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "input_tokens" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "output_tokens" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "model" text;