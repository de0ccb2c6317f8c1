-- The newest `n` snapshots of a family, walked down workspace_snapshots_family_newest_idx
-- ("family_root_thread_id", "captured_at" DESC NULLS LAST). Planned on its own with sorting off,
-- so the walk is the plan whatever the statistics say about this family: a family that grew since
-- the last analyse looks small to the planner, which then reads and sorts all of its rows instead.
CREATE OR REPLACE FUNCTION "family_newest_snapshots"("root" text, "n" bigint)
  RETURNS TABLE ("captured_at" timestamptz, "thread_id" text, "turn_index" integer)
  LANGUAGE sql STABLE
  SET enable_sort = off
AS $$
  SELECT s."captured_at", s."thread_id", s."turn_index" FROM "workspace_snapshots" s
  WHERE s."family_root_thread_id" = "root"
  ORDER BY s."captured_at" DESC NULLS LAST
  LIMIT "n"
$$;
