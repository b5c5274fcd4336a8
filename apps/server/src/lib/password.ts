import { hash, verify } from '@node-rs/argon2';

// argon2id with 19 MiB and 2 passes (OWASP's minimum for argon2id), for login and payment passwords.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spend the same time as a real check, so an unknown email cannot be told from a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('paydesk-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
