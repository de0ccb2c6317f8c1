import { AuthForm } from '@/components/auth/auth-form';
import { safeNext } from '@/lib/safe-next';

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return <AuthForm mode="sign-in" next={safeNext(next)} />;
}
