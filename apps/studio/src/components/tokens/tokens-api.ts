// The tokens page's calls: the REST routes a signed-in session uses (a token cannot make tokens).
import { TokenCreatedSchema, TokenListSchema, type ApiToken, type TokenCreated } from '@trellis/domain';
import { apiFetch, apiJson } from '@/lib/api/http';

export const tokensApi = {
  async list(): Promise<ApiToken[]> {
    return (await apiJson(TokenListSchema, '/api/tokens')).tokens;
  },
  create(name: string): Promise<TokenCreated> {
    return apiJson(TokenCreatedSchema, '/api/tokens', { method: 'POST', body: { name } });
  },
  async revoke(id: string): Promise<void> {
    await apiFetch(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
  },
};
