'use client';
import { LogOut } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { authClient } from '@/lib/auth-client';

export function SignOutButton() {
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      size="sm"
      data-testid="sign-out"
      title="Sign out"
      // Icon only on a phone, like the other header buttons: with the label the header is wider than the screen.
      aria-label="Sign out"
      className="px-2 md:px-3"
      onClick={() =>
        void authClient.signOut().then(() => {
          router.replace('/sign-in');
          router.refresh();
        })
      }
    >
      <LogOut aria-hidden /> <span className="hidden md:inline">Sign out</span>
    </Button>
  );
}
