# tiform as a container image: a static binary on a distroless base, run as a
# non-root user, with no shell or package manager in the final image.
#
#   docker build -t tiform .
#   docker run --rm -e TIFORM_DSN -v "$PWD/clusters:/work:ro" tiform plan
#
# VERSION names the release in `tiform version`; without it a build from a
# git checkout names its commit (the .git directory is part of the context).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
RUN CGO_ENABLED=0 go build -buildvcs=auto -trimpath \
      -ldflags "-s -w -X github.com/tiform/tiform/cmd.Version=${VERSION}" \
      -o /out/tiform . \
 && /out/tiform version

# distroless/static: CA certificates, /etc/passwd with the nonroot user
# (65532), no shell (https://github.com/GoogleContainerTools/distroless).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tiform /usr/local/bin/tiform
USER 65532:65532
WORKDIR /work
# The audit log goes to the user's state directory unless TIFORM_AUDIT_LOG or
# --audit-log says otherwise: mount a volume there to keep it.
ENV XDG_STATE_HOME=/home/nonroot/.local/state
ENTRYPOINT ["/usr/local/bin/tiform"]
CMD ["--help"]
