import Link from 'next/link';

/** An expired, revoked or unknown share link. */
export default function SharedLinkGone() {
  return (
    <main className="flex h-full items-center justify-center p-6" data-testid="shared-gone">
      <div className="max-w-md space-y-3 text-center">
        <h1 className="text-lg font-semibold">This link no longer works</h1>
        <p className="text-sm text-muted-foreground">
          It was revoked, has expired, or never existed. Ask the person who shared it for a new one.
        </p>
        <Link href="/" className="text-sm text-primary underline">
          Go to Trellis
        </Link>
      </div>
    </main>
  );
}
