# One image for every role: `npm run server` (API and web console), `npm run worker`
# (jobs), `npm start` (both in one process). docker-compose.yml picks the role.
FROM node:20-bookworm-slim

# .ci/run's PACKAGES without what only the tests, the benchmark and CI's own service
# checks use (chromium, pocketsphinx-testdata, postgresql-client, redis-tools).
# espeak-ng stays: the pocketsphinx dictionary pronounces listed words with it.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng yt-dlp \
      fonts-open-sans fonts-roboto fonts-lato openssl \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# the install scripts need the whole tree: the Prisma schema, the local stub packages
# and web/ (the console is built into web/dist by postinstall, with Vite, a dev
# dependency; hence a full `npm ci` and NODE_ENV set only afterwards).
# smart-whisper (TRANSCRIBER=whisper) needs g++, make and python3 to build; without
# them npm ci still succeeds and the whisper engine reports itself not installed.
COPY . .
RUN npm ci --no-audit --no-fund && npm cache clean --force

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/var/lib/clipcast
RUN mkdir -p /var/lib/clipcast && chown node:node /var/lib/clipcast
USER node
EXPOSE 4000
CMD ["npm", "start"]
