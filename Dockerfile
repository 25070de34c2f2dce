# A thin wrapper over the project's own scripts (docs/operations.md "Deployment"): it installs,
# builds with `npm run build` and runs `npm run web` or `npm run worker`; nothing else.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NODE_ENV=production
COPY . .
# Dev dependencies are needed to build (Next.js's TypeScript check); npm prune drops them after.
RUN NODE_ENV=development npm install --no-audit --no-fund && npm run build && npm prune --omit=dev
EXPOSE 3000
CMD ["npm", "run", "web"]
