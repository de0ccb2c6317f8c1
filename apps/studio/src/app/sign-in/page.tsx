import { AuthForm } from '@/components/auth/auth-form';

/** `?next=/path` brings the person back where they were (a shared link they want to continue). */
export default async function Page({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return <AuthForm mode="sign-in" next={next} />;
}
