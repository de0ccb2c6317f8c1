import { AuthForm } from '@/components/auth/auth-form';
import { safeNext } from '@/lib/safe-next';

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return <AuthForm mode="sign-up" next={safeNext(next)} />;
}
