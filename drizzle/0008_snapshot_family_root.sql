ALTER TABLE "workspace_snapshots" ADD COLUMN "family_root_thread_id" text;--> statement-breakpoint
CREATE INDEX "workspace_snapshots_family_newest_idx" ON "workspace_snapshots" USING btree ("family_root_thread_id","captured_at" DESC NULLS LAST);--> statement-breakpoint
UPDATE "workspace_snapshots" s SET "family_root_thread_id" = c."root_thread_id" FROM "conversations" c WHERE c."thread_id" = s."thread_id";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "workspace_snapshots_family_root"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c."root_thread_id" INTO NEW."family_root_thread_id" FROM "conversations" c WHERE c."thread_id" = NEW."thread_id";
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "workspace_snapshots_family_root" BEFORE INSERT ON "workspace_snapshots"
  FOR EACH ROW EXECUTE FUNCTION "workspace_snapshots_family_root"();
