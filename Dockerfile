# Build: a static binary, no cgo. The build has no .git (.dockerignore leaves it out), so
# the version and revision come in as build arguments:
#   docker build --build-arg VERSION=$(git describe --tags --always) --build-arg REVISION=$(git rev-parse HEAD) -t clarify .
FROM golang:1.26 AS build
ARG VERSION=""
ARG REVISION=""
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags="-s -w -X main.version=${VERSION} -X main.revision=${REVISION}" -o /out/bot ./cmd/bot

# Run: nothing but the binary and CA certificates, as a non-root user (uid 65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bot /bot
USER nonroot:nonroot
ENV SERVER_ADDRESS=0.0.0.0
EXPOSE 8080
# The binary is the entrypoint and the subcommand its argument, so that every subcommand
# runs from the image: `docker run IMAGE` serves, `docker run IMAGE sweep -c /config.yml`
# sweeps once, `docker run IMAGE --version` says which build it is.
ENTRYPOINT ["/bot"]
CMD ["serve"]
