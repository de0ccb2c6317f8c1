/** Trellis's mark, and its name beside it unless `withName` is false: the start of every header. */
export function TrellisMark({ withName = true }: { withName?: boolean }) {
  return (
    <>
      <span aria-hidden className="grid size-6 place-items-center rounded-md bg-primary text-xs font-bold text-primary-foreground">
        T
      </span>
      {withName && <span className="font-semibold text-primary">Trellis</span>}
    </>
  );
}
