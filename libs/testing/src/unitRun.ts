// `make unit` runs the *.unit.test.ts suites with IDV_UNIT=1 and no backing service: a suite that
// asks there for PostgreSQL, RabbitMQ, Chromium or SoftHSM is misnamed, and fails saying so.
export function refuseInUnitRun(service: string): void {
  if (process.env.IDV_UNIT !== '1') return;
  throw new Error(
    `make unit starts no backing service and this suite asked for ${service}: it is no unit suite (name it *.test.ts, not *.unit.test.ts)`,
  );
}
