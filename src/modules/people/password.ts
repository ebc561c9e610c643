import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with node:crypto's scrypt (memory-hard), through its asynchronous API so the hash runs
 * on libuv's thread pool and the event loop stays free. Parameters (docs/people.md): N = 2^15, r = 8,
 * p = 1 (32 MiB of memory per hash), a 16-byte random salt, a 64-byte key. The stored form names them,
 * `scrypt$15$8$1$<salt>$<key>` (base64url), so they can be raised later without breaking old hashes.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, LOG_N, R, P, KEY_LENGTH);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; a malformed stored value never matches. Constant-time comparison. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algo, logN, r, p, salt, key] = stored.split('$');
  if (algo !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The hash of a random password nobody kept (made once with these parameters): checked when there is no
 * hash to check, it costs exactly one verification, from the very first sign-in on.
 */
const DUMMY_HASH = 'scrypt$15$8$1$c061d2ZEszFf_U3Bno5iEg$jzyql8-iizmXEFEaptfHM3hcUJlD5Vovy1u12Pf-DnA1BC5VN6ON5bU6BMpYjKkvDG7XcsLkhCLBahZmPrYK4w';

/**
 * Spends the time of one verification when there is no hash to check (unknown e-mail, no password
 * yet), so the answer's timing does not tell whether an account exists. Always false.
 */
export async function verifyNothing(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_HASH);
  return false;
}
