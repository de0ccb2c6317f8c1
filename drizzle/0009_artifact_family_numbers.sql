ALTER TABLE "conversations" ADD COLUMN "last_artifact_number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
WITH firsts AS (
  SELECT c."root_thread_id", a."key", min(a."id") AS first_id
  FROM "artifacts" a JOIN "conversations" c ON c."thread_id" = a."thread_id"
  GROUP BY c."root_thread_id", a."key"
), numbered AS (
  SELECT "root_thread_id", "key", row_number() OVER (PARTITION BY "root_thread_id" ORDER BY first_id)::int AS n FROM firsts
)
UPDATE "artifacts" a SET "number" = nb.n
FROM "conversations" c, numbered nb
WHERE c."thread_id" = a."thread_id" AND nb."root_thread_id" = c."root_thread_id" AND nb."key" = a."key";--> statement-breakpoint
UPDATE "conversations" r SET "last_artifact_number" = m.n
FROM (
  SELECT c."root_thread_id", max(a."number") AS n
  FROM "artifacts" a JOIN "conversations" c ON c."thread_id" = a."thread_id"
  GROUP BY c."root_thread_id"
) m
WHERE r."thread_id" = m."root_thread_id";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "artifacts_family_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."number" = 0 THEN
    UPDATE "conversations" r SET "last_artifact_number" = r."last_artifact_number" + 1
    FROM "conversations" c
    WHERE c."thread_id" = NEW."thread_id" AND r."thread_id" = c."root_thread_id"
    RETURNING r."last_artifact_number" INTO NEW."number";
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "artifacts_family_number" BEFORE INSERT ON "artifacts"
  FOR EACH ROW EXECUTE FUNCTION "artifacts_family_number"();
