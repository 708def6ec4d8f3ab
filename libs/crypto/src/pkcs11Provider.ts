// The PKCS#11 key provider (issue 26): KEKs are AES-256 keys generated inside a token (an HSM, or
// SoftHSM2 here and in compose) that never leaves it; the token wraps and unwraps data keys with
// AES-GCM, each bound to `kek:<kekId>|dk:<dataKeyId>` as the local provider binds them. A KEK's id
// is its CKA_LABEL, so every process finds the same key by the id the keystore names.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Handle, Mechanism, PKCS11 } from 'pkcs11js';
import { DecryptError } from './cipher.ts';
import { DATA_KEY_BYTES } from './envelope.ts';
import { UnknownKeyError, type KeyProvider } from './keyProvider.ts';
import { freshRandom } from './randomPool.ts';

type Pkcs11Js = typeof import('pkcs11js');

export interface Pkcs11Options {
  /** PKCS11_MODULE: the vendor's PKCS#11 library (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so) */
  module: string;
  /** PKCS11_TOKEN_LABEL: the token that holds the KEKs */
  tokenLabel: string;
  /** PKCS11_PIN: the token's user PIN */
  pin: string;
  /** PKCS11_INITIAL_KEY_LABEL: the KEK a fresh keystore starts with, made in the token if absent */
  initialKeyLabel: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const WRAPPED_BYTES = IV_BYTES + DATA_KEY_BYTES + TAG_BYTES;
// PKCS#11 return values: a session or handle the token dropped (a restart, a logout elsewhere),
// retried once on fresh ones; a tag that does not verify (SoftHSM2 says CKR_GENERAL_ERROR)
const STALE = new Set([0x32, 0x60, 0x82, 0xb0, 0xb3, 0xe0, 0x101]);
const NOT_AUTHENTIC = new Set([0x05, 0x06, 0x35, 0x40, 0x41]);
const CKR_CRYPTOKI_ALREADY_INITIALIZED = 0x191;
const CKR_USER_ALREADY_LOGGED_IN = 0x100;

const codeOf = (err: unknown) =>
  err instanceof Error && 'code' in err && typeof err.code === 'number' ? err.code : -1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// the library's login and initialisation are the process's, not a session's: the last provider of
// a module to close finalises it
const openModules = new Map<string, number>();

/**
 * KEKs in a PKCS#11 token through one logged-in session. Every call is synchronous and no operation
 * awaits between its calls (init, then encrypt), so the one session serves every caller in turn.
 */
export class Pkcs11KeyProvider implements KeyProvider {
  readonly kind = 'pkcs11';
  private readonly handles = new Map<string, Handle>();
  private session: Handle | undefined;

  private constructor(
    private readonly lib: Pkcs11Js,
    private readonly token: PKCS11,
    private readonly slot: Handle,
    private readonly options: Pkcs11Options,
  ) {}

  /**
   * Loads the module, finds the token and logs in; an error names the setting to fix. A token that
   * reads as broken or absent is looked for again a few times: SoftHSM2's files, while another
   * process writes them, can (SoftHSMv2 issue 757). A refused PIN is never tried again.
   */
  static async open(options: Pkcs11Options): Promise<Pkcs11KeyProvider> {
    let lib: Pkcs11Js;
    try {
      // loaded here, not on import: only a process that uses this provider needs the native addon
      lib = createRequire(import.meta.url)('pkcs11js') as Pkcs11Js;
    } catch (err) {
      throw new Error(
        `KEY_PROVIDER=pkcs11 needs the pkcs11js addon built (npm rebuild pkcs11js): ${String(err)}`,
      );
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return Pkcs11KeyProvider.openOnce(lib, options);
      } catch (err) {
        const unsettled =
          err instanceof NoSuchToken || codeOf(err) === 5 || codeOf((err as Error).cause) === 5;
        if (!unsettled || attempt === 4) throw err;
        await sleep(20 + Math.random() * 80);
      }
    }
  }

  private static openOnce(lib: Pkcs11Js, options: Pkcs11Options): Pkcs11KeyProvider {
    const token = new lib.PKCS11();
    try {
      token.load(options.module);
    } catch (err) {
      throw new Error(
        `PKCS11_MODULE=${options.module} cannot be loaded as a PKCS#11 module: ${(err as Error).message}`,
      );
    }
    const users = openModules.get(options.module) ?? 0;
    openModules.set(options.module, users + 1);
    let provider: Pkcs11KeyProvider | undefined;
    try {
      if (users === 0) initialize(token, options.module);
      provider = new Pkcs11KeyProvider(lib, token, findSlot(token, options), options);
      provider.login();
      return provider;
    } catch (err) {
      if (provider) provider.close();
      else release(token, options.module);
      throw err;
    }
  }

  initialKeyId(): string {
    return this.options.initialKeyLabel;
  }

  async createKey(): Promise<string> {
    const label = `pkcs11-${randomBytes(8).toString('hex')}`;
    return this.onToken(() => {
      this.handles.set(label, this.generate(label));
      return label;
    });
  }

  /** Whether the token holds the KEK; the initial one is made there at its first use. */
  async hasKey(kekId: string): Promise<boolean> {
    return this.onToken(async () => (await this.key(kekId, true)) !== undefined);
  }

  /** IV(12) || ciphertext(32) || tag(16), as the local provider's. */
  async wrap(kekId: string, dataKeyId: string, key: Buffer): Promise<Buffer> {
    if (key.length !== DATA_KEY_BYTES) throw new RangeError('a data key is 32 bytes');
    return this.onToken(async () => {
      const kek = this.required(kekId, await this.key(kekId, true));
      const iv = freshRandom(IV_BYTES);
      this.token.C_EncryptInit(this.live(), this.gcm(iv, kekId, dataKeyId), kek);
      const body = this.token.C_Encrypt(this.live(), key, Buffer.alloc(DATA_KEY_BYTES + TAG_BYTES));
      return Buffer.concat([iv, body]);
    });
  }

  async unwrap(kekId: string, dataKeyId: string, wrapped: Buffer): Promise<Buffer> {
    if (wrapped.length !== WRAPPED_BYTES)
      throw new DecryptError(`a wrapped data key is ${WRAPPED_BYTES} bytes`);
    return this.onToken(async () => {
      // a KEK missing at unwrap is never made: a new key under the old label would open nothing
      const kek = this.required(kekId, await this.key(kekId, false));
      this.token.C_DecryptInit(
        this.live(),
        this.gcm(wrapped.subarray(0, IV_BYTES), kekId, dataKeyId),
        kek,
      );
      try {
        return Buffer.from(
          this.token.C_Decrypt(
            this.live(),
            wrapped.subarray(IV_BYTES),
            Buffer.alloc(WRAPPED_BYTES),
          ),
        );
      } catch (err) {
        if (NOT_AUTHENTIC.has(codeOf(err)))
          throw new DecryptError('the wrapped data key does not open under its key');
        throw err;
      }
    });
  }

  /** Closes the session; the module is finalised when no other provider of this process uses it. */
  close(): void {
    if (this.session) call(() => this.token.C_CloseSession(this.session!), ...STALE);
    this.session = undefined;
    this.handles.clear();
    release(this.token, this.options.module);
  }

  private login(): void {
    this.session = this.token.C_OpenSession(
      this.slot,
      this.lib.CKF_SERIAL_SESSION | this.lib.CKF_RW_SESSION,
    );
    try {
      call(
        () => this.token.C_Login(this.live(), this.lib.CKU_USER, this.options.pin),
        CKR_USER_ALREADY_LOGGED_IN,
      );
    } catch (err) {
      throw new Error(
        `PKCS11_PIN: the token ${this.options.tokenLabel} refused the login (${(err as Error).message})`,
      );
    }
  }

  private live(): Handle {
    if (!this.session) throw new Error('the PKCS#11 key provider is closed');
    return this.session;
  }

  /** Runs `work`; once more on a fresh session and fresh handles when the token dropped them. */
  private async onToken<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!STALE.has(codeOf(err)) || !this.session) throw err;
      call(() => this.token.C_CloseSession(this.session!), ...STALE);
      this.handles.clear();
      this.login();
      return work();
    }
  }

  private required(kekId: string, kek: Handle | undefined): Handle {
    if (!kek)
      throw new UnknownKeyError(
        `the key-encryption key ${kekId} is not in the PKCS#11 token ${this.options.tokenLabel}`,
      );
    return kek;
  }

  /** The KEK labelled `label`; the initial one, when absent and `create`, is made here. */
  private async key(label: string, create: boolean): Promise<Handle | undefined> {
    const cached = this.handles.get(label);
    if (cached) return cached;
    for (let attempt = 0; attempt < 20; attempt++) {
      const found = this.find(label);
      if (found.length > 1)
        throw new Error(
          `${found.length} keys in the PKCS#11 token ${this.options.tokenLabel} are labelled ${label}: keep the one the data keys are under`,
        );
      if (found[0]) return this.remember(label, found[0]);
      if (!create || label !== this.options.initialKeyLabel) return undefined;
      if (this.makeInitial(label)) continue;
      await sleep(10 + Math.random() * 90);
    }
    throw new Error(
      `the initial key ${label} could not be made in the PKCS#11 token ${this.options.tokenLabel}: other processes kept making it too, or a key labelled pending:${label} is left from an interrupted start (nothing is under it: delete it)`,
    );
  }

  /**
   * Processes starting together may each make the initial KEK: each makes its own under a pending
   * label and names it only when it sees no other pending or named one, else destroys it and tries
   * again later. Of two that overlap, at least the later sees the other, so one key is ever named,
   * and no process uses one that is not.
   */
  private makeInitial(label: string): boolean {
    const pending = `pending:${label}`;
    const mine = this.generate(pending);
    if (this.find(pending).length === 1 && this.find(label).length === 0) {
      this.token.C_SetAttributeValue(this.live(), mine, [
        { type: this.lib.CKA_LABEL, value: label },
      ]);
      return true;
    }
    this.token.C_DestroyObject(this.live(), mine);
    return false;
  }

  private remember(label: string, kek: Handle): Handle {
    this.handles.set(label, kek);
    return kek;
  }

  private find(label: string): Handle[] {
    const { lib, token } = this;
    token.C_FindObjectsInit(this.live(), [
      { type: lib.CKA_CLASS, value: lib.CKO_SECRET_KEY },
      { type: lib.CKA_KEY_TYPE, value: lib.CKK_AES },
      { type: lib.CKA_LABEL, value: label },
    ]);
    try {
      return token.C_FindObjects(this.live(), 8);
    } finally {
      token.C_FindObjectsFinal(this.live());
    }
  }

  /** A new AES-256 KEK made inside the token, kept there, never readable or wrappable out. */
  private generate(label: string): Handle {
    const { lib } = this;
    return this.token.C_GenerateKey(this.live(), { mechanism: lib.CKM_AES_KEY_GEN }, [
      { type: lib.CKA_CLASS, value: lib.CKO_SECRET_KEY },
      { type: lib.CKA_KEY_TYPE, value: lib.CKK_AES },
      { type: lib.CKA_VALUE_LEN, value: 32 },
      { type: lib.CKA_LABEL, value: label },
      { type: lib.CKA_TOKEN, value: true },
      { type: lib.CKA_PRIVATE, value: true },
      { type: lib.CKA_SENSITIVE, value: true },
      { type: lib.CKA_EXTRACTABLE, value: false },
      { type: lib.CKA_ENCRYPT, value: true },
      { type: lib.CKA_DECRYPT, value: true },
      { type: lib.CKA_WRAP, value: false },
      { type: lib.CKA_UNWRAP, value: false },
    ]);
  }

  /** AES-GCM with a 96-bit IV and a 128-bit tag, bound to both ids (PKCS#11 2.40 parameters). */
  private gcm(iv: Buffer, kekId: string, dataKeyId: string): Mechanism {
    const aad = Buffer.from(`kek:${kekId}|dk:${dataKeyId}`, 'utf8'); // envelope.ts's binding
    const parameter = {
      type: this.lib.CK_PARAMS_AES_GCM_v240,
      iv,
      ivBits: IV_BYTES * 8,
      aad,
      tagBits: TAG_BYTES * 8,
    };
    return { mechanism: this.lib.CKM_AES_GCM, parameter };
  }
}

function initialize(token: PKCS11, module: string): void {
  try {
    call(() => token.C_Initialize(), CKR_CRYPTOKI_ALREADY_INITIALIZED);
  } catch (err) {
    // SoftHSM2 fails here when the token directory of SOFTHSM2_CONF's file is missing
    throw new Error(
      `PKCS11_MODULE=${module} did not initialise (${(err as Error).message}); SoftHSM2: check SOFTHSM2_CONF`,
      { cause: err },
    );
  }
}

/** Runs a PKCS#11 call, taking the return values in `fine` as success. */
function call(work: () => void, ...fine: number[]): void {
  try {
    work();
  } catch (err) {
    if (!fine.includes(codeOf(err))) throw err;
  }
}

class NoSuchToken extends Error {}

function findSlot(token: PKCS11, options: Pkcs11Options): Handle {
  const labels: string[] = [];
  for (const slot of token.C_GetSlotList(true)) {
    const label = token.C_GetTokenInfo(slot).label.trim();
    if (label === options.tokenLabel) return slot;
    labels.push(label);
  }
  throw new NoSuchToken(
    `PKCS11_TOKEN_LABEL=${options.tokenLabel}: no such token in ${options.module} (it has: ${labels.join(', ') || 'none'})`,
  );
}

function release(token: PKCS11, module: string): void {
  const users = (openModules.get(module) ?? 1) - 1;
  if (users > 0) openModules.set(module, users);
  else {
    openModules.delete(module);
    call(() => token.C_Finalize(), 0x190); // CKR_CRYPTOKI_NOT_INITIALIZED
  }
  token.close();
}
