CREATE TABLE "studies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"consent_markdown" text DEFAULT '' NOT NULL,
	"instructions_markdown" text DEFAULT '' NOT NULL,
	"seed" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"slug" text NOT NULL,
	"time_limit_minutes" integer,
	"min_minutes" integer,
	"completion_code" text,
	"completion_redirect_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studies_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "study_conditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"system_prompt" text,
	"tools" jsonb,
	"branching" boolean NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_participants" (
	"participant_id" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"condition_id" uuid NOT NULL,
	"pid" text,
	"prolific_pid" text,
	"prolific_study_id" text,
	"prolific_session_id" text,
	"user_id" text,
	"thread_id" text,
	"status" text DEFAULT 'consented' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"participant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_conditions" ADD CONSTRAINT "study_conditions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_participants" ADD CONSTRAINT "study_participants_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_participants" ADD CONSTRAINT "study_participants_condition_id_study_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."study_conditions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_participants" ADD CONSTRAINT "study_participants_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_participants" ADD CONSTRAINT "study_participants_thread_id_conversations_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."conversations"("thread_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_sessions" ADD CONSTRAINT "study_sessions_participant_id_study_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."study_participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "studies_owner_idx" ON "studies" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "study_conditions_name_idx" ON "study_conditions" USING btree ("study_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "study_conditions_position_idx" ON "study_conditions" USING btree ("study_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "study_participants_pid_idx" ON "study_participants" USING btree ("study_id","pid") WHERE "study_participants"."pid" is not null;--> statement-breakpoint
CREATE INDEX "study_participants_study_idx" ON "study_participants" USING btree ("study_id","condition_id");--> statement-breakpoint
CREATE INDEX "study_participants_thread_idx" ON "study_participants" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "study_sessions_participant_idx" ON "study_sessions" USING btree ("participant_id");