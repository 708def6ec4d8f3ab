// The example of docs/sdk.md: call GET /servicekeys on the docverify gateway with the client SDK.
import { IdvClient } from '@idv/client';

const licenseKey = process.env.LICENSE;
if (!licenseKey) {
  console.error('set LICENSE to a licence key (make run prints one)');
  process.exit(2);
}
const client = new IdvClient({
  baseUrl: process.env.BASE_URL ?? 'http://127.0.0.1:8081',
  licenseKey,
});
const res = await client.request('GET', '/servicekeys');
console.log(res.status, JSON.stringify(res.body, null, 2));
