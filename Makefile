# Two commands for everything: `make run` and `make test`. Node 22 comes from the npm registry
# (devDependency "node"), so every target runs on node_modules/.bin/node whatever the machine has.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
STAMP := node_modules/.install-stamp

.PHONY: run test test-faults bench lint typecheck check generate unit migrate install services browser hsm page console-app clean

$(STAMP): package.json package-lock.json $(wildcard */*/package.json) contracts/package.json
	@command -v npm >/dev/null || { echo "npm is required (Node.js 18+ with npm); see README"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(STAMP)

install: $(STAMP) hsm

services: ## start PostgreSQL and RabbitMQ when they are installed here but not running
	@bash infra/dev/backing-services.sh

browser: ## Debian's chromium for the browser tests of the login pages and the capture page
	@sh infra/dev/ensure-chromium.sh

hsm: ## Debian's SoftHSM2: the PKCS#11 token of the pkcs11 key provider's tests (and of compose)
	@command -v softhsm2-util >/dev/null && [ -f /usr/lib/softhsm/libsofthsm2.so ] || { \
	  command -v apt-get >/dev/null || { echo "warning: softhsm2 is missing and apt-get is not available: the pkcs11 tests need SoftHSM2 (/usr/lib/softhsm/libsofthsm2.so)" >&2; exit 0; }; \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends softhsm2; }

# The capture page (services/capture-page, Vite): built into its dist/ when missing or older than
# any of its sources; the gateway serves it at /capture/{token}.
PAGE := services/capture-page
PAGE_DIST := $(PAGE)/dist/index.html
PAGE_SOURCES := $(shell find $(PAGE)/src -type f 2>/dev/null) $(PAGE)/index.html \
	$(PAGE)/vite.config.ts $(PAGE)/package.json
$(PAGE_DIST): $(STAMP) $(PAGE_SOURCES)
	npm run -s build -w $(PAGE)
	@touch $(PAGE_DIST)

page: $(PAGE_DIST)

# The operator console's web app (services/console/web, React + Vite): built into
# services/console/dist when missing or older than any of its sources; the console serves it.
CONSOLE := services/console
CONSOLE_DIST := $(CONSOLE)/dist/index.html
CONSOLE_SOURCES := $(shell find $(CONSOLE)/web -type f 2>/dev/null) $(CONSOLE)/vite.config.ts \
	$(CONSOLE)/package.json
$(CONSOLE_DIST): $(STAMP) $(CONSOLE_SOURCES)
	npm run -s build -w $(CONSOLE)
	@touch $(CONSOLE_DIST)

console-app: $(CONSOLE_DIST)

migrate: install services
	npm run -s migrate

run: install services page console-app
	tsx infra/dev/run.ts

lint: install
	eslint .
	prettier --check .

typecheck: install
	tsc -p tsconfig.json --noEmit
	tsc -p $(PAGE)/tsconfig.json --noEmit
	tsc -p $(CONSOLE)/web/tsconfig.json --noEmit

# Every generator of the tree (infra/render.ts: the connector types' derived files, the tables of
# settings and session states in docs/configuration.md and docs/sessions.md); `make check` fails while a generated file differs.
generate: install
	tsx infra/render.ts --write

check: lint typecheck
	tsx infra/render.ts

# The suites that need no backing service, named *.unit.test.ts: run with PostgreSQL and RabbitMQ
# at a closed port and IDV_UNIT=1, under which the test servers, Chromium and SoftHSM2 refuse to
# start (@idv/testing/unitRun), so a suite wrongly named unit fails loudly instead of passing here
# by reaching the shared servers. `make test` runs them along with everything else.
UNIT_SUITES := 'contracts/test/**/*.unit.test.ts' 'libs/*/test/**/*.unit.test.ts' \
	'services/*/test/**/*.unit.test.ts' 'test/**/*.unit.test.ts'
unit: install
	IDV_UNIT=1 DATABASE_URL=postgres://postgres@127.0.0.1:1/postgres AMQP_URL=amqp://guest:guest@127.0.0.1:1 \
	  mocha $(UNIT_SUITES)

test: install services browser page console-app lint typecheck
	mocha

# The fault suites alone, harder than in `make test`: RabbitMQ and PostgreSQL are really stopped
# (rabbitmqctl stop_app, pg_ctlcluster stop) for IDV_FAULTS_OUTAGE_S seconds instead of cut behind
# a TCP proxy, and the dispatcher is killed amid 1,000 events instead of 60. It stops the shared
# servers: run it when nothing else uses them.
FAULT_SUITES := test/faults/*.test.ts test/connector-faults.test.ts test/broker-outage.test.ts \
	test/database-outage.test.ts services/webhook-dispatcher/test/restart.test.ts
test-faults: install services
	IDV_FAULTS_REAL=1 IDV_FAULTS_OUTAGE_S=$${IDV_FAULTS_OUTAGE_S:-15} WEBHOOK_RESTART_EVENTS=1000 \
	  mocha --no-config -n import=tsx --extension ts --timeout 60000 --exit \
	  --reporter ./libs/testing/src/reporter.cjs $(FAULT_SUITES)

bench: install services
	tsx bench/run.ts

clean:
	rm -rf node_modules .local test-artifacts $(PAGE)/dist $(CONSOLE)/dist
