// The current TOTP code of a secret (the dev operator's, printed by `make run`), for signing in
// without an authenticator app: `npx tsx infra/dev/totp.ts SECRET`.
import { generate } from 'otplib';

const secret = process.argv[2];
if (!secret) {
  console.error('usage: npx tsx infra/dev/totp.ts BASE32_SECRET');
  process.exit(2);
}
const seconds = 30 - (Math.floor(Date.now() / 1000) % 30);
console.log(`${await generate({ secret })}  (valid for ${seconds} more seconds)`);
