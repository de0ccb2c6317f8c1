# The studio for production: an external PostgreSQL (DATABASE_URL), migrations at start.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY apps/studio/package.json apps/studio/
COPY packages/domain/package.json packages/domain/
COPY packages/db/package.json packages/db/
COPY packages/agent/package.json packages/agent/
COPY packages/services/package.json packages/services/
COPY packages/transcripts/package.json packages/transcripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN cd apps/studio && NEXT_TELEMETRY_DISABLED=1 npx next build

FROM node:20-bookworm-slim
WORKDIR /app
# NEXT_MANUAL_SIG_HANDLE: the studio's own handlers drain turns on SIGTERM (Next's would exit at once).
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 NEXT_MANUAL_SIG_HANDLE=true \
    TRELLIS_SHUTDOWN_GRACE_SECONDS=10
COPY --from=build /app /app
EXPOSE 3000
STOPSIGNAL SIGTERM
# Migrations (drizzle + checkpointer schema) run first; the studio also re-checks them at boot.
# `exec node` (not npx, which does not forward signals) makes the server PID 1, so `docker stop`'s
# SIGTERM reaches it; give it more than the grace to drain (`docker stop -t 20`, compose's stop_grace_period).
CMD ["sh", "-c", "npm run db:migrate && cd apps/studio && exec node scripts/server.mjs"]
