# Two commands for everything: `make run` and `make test`. Node 22 comes from the npm registry
# (devDependency "node"), so every target runs on node_modules/.bin/node whatever the machine has.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
STAMP := node_modules/.install-stamp

.PHONY: run test bench lint typecheck unit migrate install services browser clean

$(STAMP): package.json package-lock.json $(wildcard */*/package.json) contracts/package.json
	@command -v npm >/dev/null || { echo "npm is required (Node.js 18+ with npm); see README"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(STAMP)

install: $(STAMP)

services: ## start PostgreSQL and RabbitMQ when they are installed here but not running
	@bash infra/dev/backing-services.sh

browser: ## Debian's chromium for the browser tests of the login pages
	@sh infra/dev/ensure-chromium.sh

migrate: install services
	npm run -s migrate

run: install services
	tsx infra/dev/run.ts

lint: install
	eslint .
	prettier --check .

typecheck: install
	tsc -p tsconfig.json --noEmit

unit: install services
	mocha

test: install services browser lint typecheck
	mocha

bench: install services
	tsx bench/run.ts

clean:
	rm -rf node_modules .local test-artifacts
