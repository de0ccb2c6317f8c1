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
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000
COPY --from=build /app /app
EXPOSE 3000
# Migrations (drizzle + checkpointer schema) run first; the studio also re-checks them at boot.
CMD ["sh", "-c", "npm run db:migrate && cd apps/studio && exec npx next start -H \"$HOST\" -p \"$PORT\""]
