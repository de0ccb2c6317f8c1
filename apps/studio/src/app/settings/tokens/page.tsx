import { ApiTokensPage } from '@/components/tokens/api-tokens-page';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'API tokens · Trellis' };

/** List, create (the secret shown once) and revoke personal API tokens. */
export default async function TokensPage() {
  const user = await requireUser();
  return <ApiTokensPage email={user.email} />;
}
