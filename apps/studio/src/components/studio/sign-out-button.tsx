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
      onClick={() =>
        void authClient.signOut().then(() => {
          router.replace('/sign-in');
          router.refresh();
        })
      }
    >
      <LogOut /> Sign out
    </Button>
  );
}
