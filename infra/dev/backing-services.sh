#!/usr/bin/env bash
# Makes sure PostgreSQL and RabbitMQ answer on their default ports; starts the local packages
# when they are installed but stopped. With Docker, `docker compose up -d postgres rabbitmq` instead.
set -u
pg_host=127.0.0.1; pg_port=5432; amqp_port=5672

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" && return 0; sleep 1; done
  return 1
}

if [ -n "${DATABASE_URL:-}" ] || [ -n "${AMQP_URL:-}" ]; then exit 0; fi

if ! port_open $pg_port; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  fi
  wait_port $pg_port || { echo "PostgreSQL is not reachable on $pg_host:$pg_port (set DATABASE_URL or start it)"; exit 1; }
fi

if ! port_open $amqp_port; then
  if command -v rabbitmq-server >/dev/null; then
    echo "starting RabbitMQ"
    rabbitmq-server -detached || true
  fi
  wait_port $amqp_port || { echo "RabbitMQ is not reachable on 127.0.0.1:$amqp_port (set AMQP_URL or start it)"; exit 1; }
fi
