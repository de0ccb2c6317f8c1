-- The capture time of the n-th newest visible snapshot of a family (null when it has fewer): one walk
-- down workspace_snapshots_family_newest_idx ("family_root_thread_id", "captured_at" DESC NULLS LAST)
-- that stops there, skipping the rows of hidden threads and the turns a branch inherits. `visible`
-- maps each visible thread to the turn its owned turns start after (-1 for the root). Planned on
-- its own with sorting off, so the walk is the plan whatever the statistics say about this family.
-- It replaces family_newest_snapshots, whose fixed window of rows needed a whole-family fallback.
CREATE OR REPLACE FUNCTION "family_newest_cut"("root" text, "visible" jsonb, "n" bigint)
  RETURNS timestamptz
  LANGUAGE sql STABLE
  SET enable_sort = off
AS $$
  SELECT s."captured_at" FROM "workspace_snapshots" s
  WHERE s."family_root_thread_id" = "root"
    AND s."turn_index" > coalesce(("visible" ->> s."thread_id")::int, 2147483647)
  ORDER BY s."captured_at" DESC NULLS LAST
  OFFSET greatest("n" - 1, 0) LIMIT 1
$$;--> statement-breakpoint
DROP FUNCTION IF EXISTS "family_newest_snapshots"(text, bigint);
