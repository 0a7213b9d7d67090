# Folio in a container: the compiled executable on a small runtime image.
#
#   docker build -t folio .
#   docker run -p 1337:1337 -v folio-data:/app/data folio
#   docker run -p 1337:1337 -v folio-data:/app/data -v "$PWD/content-types:/app/content-types:ro" folio
#
# Commands other than serve run the same way: `docker run --rm -v folio-data:/app/data folio
# permissions grant public api::article.article.find`. Settings come from the environment
# (`-e DATABASE_URL=postgres://…`, see docs/deploy.md), or from /app/.env.

# Build stage: Bun comes from npm (a dependency of the package), as on a developer's machine.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY content-types ./content-types
RUN npm run build && mkdir -p /out/data && cp dist/folio /out/folio && cp -r content-types /out/content-types

# Runtime: glibc with libstdc++ and nothing else (no shell, no package manager), ~25 MB
# besides the executable. Runs as the image's unprivileged user.
FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build --chown=nonroot:nonroot /out/ /app/
# Inside a container the server must listen on every interface to be reachable at all.
ENV HOST=0.0.0.0 \
    PORT=1337 \
    FOLIO_DATA=/app/data \
    FOLIO_CONTENT_TYPES=/app/content-types
# The database (SQLite), secrets.json and uploads: keep them across container restarts.
VOLUME ["/app/data"]
EXPOSE 1337
ENTRYPOINT ["/app/folio"]
CMD ["serve"]
