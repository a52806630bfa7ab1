# One image for every role: `npm run server` (API and web console), `npm run worker`
# (jobs), `npm start` (both in one process). docker-compose.yml picks the role.
#
# Two stages: `build` has the compilers smart-whisper needs (g++, make, python3) and
# runs npm ci, which builds the Whisper engine and the console; the image itself
# gets the built tree without the compilers. The Whisper model is not in the image:
# mount it and set WHISPER_MODEL (README, Configuration and Whisper).
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ make python3 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# the install scripts need the whole tree: the Prisma schema, the local stub packages
# and web/ (the console is built into web/dist by postinstall, with Vite, a dev
# dependency; hence a full `npm ci` and NODE_ENV set only afterwards).
COPY . .
RUN npm ci --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
# .ci/run's PACKAGES without what only the tests, the benchmark and CI's own service
# checks use (chromium, pocketsphinx-testdata, postgresql-client, redis-tools).
# espeak-ng stays: the pocketsphinx dictionary pronounces listed words with it.
# The fonts: every caption template's family, and Noto for other scripts.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng yt-dlp openssl \
      fonts-open-sans fonts-roboto fonts-lato fonts-bebas-neue fonts-league-spartan fonts-dancingscript fonts-lobster fonts-comic-neue fonts-dejavu-core fonts-noto-core fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=build /app /app

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/var/lib/clipcast
RUN mkdir -p /var/lib/clipcast && chown node:node /var/lib/clipcast
USER node
EXPOSE 4000
CMD ["npm", "start"]
