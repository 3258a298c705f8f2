# One image for the API and the worker (docker-compose.yml picks the command).
# Node 24 runs the TypeScript sources directly (type stripping); the only build is the web console's
# (React + Vite, devDependencies), made in its own stage so the image keeps production dependencies only.
FROM node:24-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY console ./console
COPY scripts/console-build.ts ./scripts/
RUN node scripts/console-build.ts

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=console /app/console/dist ./console/dist
# Named volumes mounted here (anvil deployments, IPFS store) take this ownership on first use.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "api/main.ts"]
