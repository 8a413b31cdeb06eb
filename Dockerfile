# The image deploy/compose.yaml runs: one image, every process role (SERVICES picks the role).
# test/deploy/imagem.test.ts runs this file's deploy RUN line and CMD (no Docker engine needed) so they cannot drift.

# Build stage: the whole workspace with its dev dependencies, compiled.
FROM node:20-bookworm AS build
RUN npm install --global pnpm@10.34.8
WORKDIR /src
# The manifests first: the dependency layer is rebuilt only when they change.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY contracts/package.json contracts/
COPY domain/package.json domain/
COPY projections/package.json projections/
COPY services/adapters/package.json services/adapters/
COPY services/api/package.json services/api/
COPY services/application/package.json services/application/
COPY services/console/package.json services/console/
COPY services/authority/package.json services/authority/
COPY services/documents/package.json services/documents/
COPY services/emission-processor/package.json services/emission-processor/
COPY services/ops/package.json services/ops/
COPY services/payout-processor/package.json services/payout-processor/
COPY services/platform/package.json services/platform/
COPY services/server/package.json services/server/
COPY services/webhooks-processor/package.json services/webhooks-processor/
COPY services/distribuicao-processor/package.json services/distribuicao-processor/
COPY test/package.json test/
COPY bench/package.json bench/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build
# The server package and its production dependencies only (workspace packages copied with their dist/ and migrations):
# --legacy because the workspace does not inject its packages (pnpm 10's default deploy requires that).
RUN pnpm --filter @frete/server deploy --prod --legacy /out

# Runtime stage: no compiler, no dev dependencies, not root.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /out /app/services/server
USER node
EXPOSE 3000 9464
CMD ["node", "services/server/dist/main.js"]
