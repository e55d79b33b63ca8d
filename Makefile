# tiform — the README's two commands are `make demo` and `make test`.
GO        ?= go
BIN       := bin
STATICCHECK_VERSION := v0.8.2
DEMO_ADDR ?= 127.0.0.1:0
DEMO_VERSION ?= v8.5.1

.PHONY: all build test check fmt-check vet staticcheck demo clean bench fuzz catalog catalog-check tidb-server

all: build

build:
	@mkdir -p $(BIN)
	$(GO) build -buildvcs=auto -o $(BIN)/tiform .
	$(GO) build -o $(BIN)/tidbsim ./cmd/tidbsim

# The upstream tidb-server of the real-TiDB tier (docs/testing.md): built
# once by tools/tidbserver into a cache outside the checkout (about 8 minutes
# on 2 cores when nothing is cached; seconds after), its path printed.
# TIFORM_REAL_TIDB=off skips the tier (a machine without the module proxy).
tidb-server:
	@if [ "$$TIFORM_REAL_TIDB" = off ]; then echo "TIFORM_REAL_TIDB=off: the real-TiDB tier is skipped"; \
	else cd tools/tidbserver && GOFLAGS= $(GO) run . ; fi

# make test also runs every benchmark once (-benchtime=1x), so that a
# benchmark that no longer works fails here, not in the next make bench.
# The real-TiDB tier runs in it: the server is built (or found in the
# cache) first and handed to the tests by TIFORM_TIDB_SERVER. GoReleaser
# (the release test's tool) is built into the build cache before the tests
# too, so that its cold build is not counted against the test timeout.
test:
	@if [ "$$TIFORM_REAL_TIDB" = off ]; then echo "TIFORM_REAL_TIDB=off: the real-TiDB tier is skipped"; else \
	  bin=$$(cd tools/tidbserver && GOFLAGS= $(GO) run .) || exit 1; \
	  echo "real-TiDB tier: $$bin ($$($$bin -V | head -1))"; export TIFORM_TIDB_SERVER=$$bin; fi; \
	echo "GoReleaser (tools/release, for the release test): $$(cd tools/release && GOFLAGS= $(GO) tool -n goreleaser)"; \
	$(GO) test -race -count=1 -timeout 20m ./... && \
	$(GO) test -count=1 -run '^$$' -bench . -benchtime=1x ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd tools/tidbserver && GOFLAGS= $(GO) vet ./...

staticcheck:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

check: fmt-check vet staticcheck test

# The generated upstream table (docs/catalog.md, "Regenerating"): both read
# the upstream copies named by TIFORM_UPSTREAM_TIKV, TIFORM_UPSTREAM_PD and
# TIFORM_UPSTREAM_DOCS_CN.
# Both also probe the real-TiDB tier's tidb-server (internal/upstream/sysvar_probe.json).
catalog:
	TIFORM_TIDB_SERVER=$$($(MAKE) -s tidb-server) $(GO) run ./tools/catalogen -out internal/upstream/settings.json

catalog-check:
	TIFORM_TIDB_SERVER=$$($(MAKE) -s tidb-server) $(GO) run ./tools/catalogen -check -out internal/upstream/settings.json

# Every fuzz target, one at a time, FUZZTIME each (make fuzz FUZZTIME=5m).
# make test replays the corpus under testdata/fuzz/ without fuzzing.
FUZZTIME ?= 1m
fuzz:
	@FUZZTIME=$(FUZZTIME) FUZZ='$(FUZZ)' GO=$(GO) bash scripts/fuzz.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

demo: build
	@bash scripts/demo.sh $(DEMO_ADDR) $(DEMO_VERSION)

clean:
	rm -rf $(BIN)
