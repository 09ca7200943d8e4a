import { describe, expect, it, vi } from 'vitest';
import { type AuthClaims, rememberVerified } from './bearer.ts';

describe('rememberVerified', () => {
  // Real time on purpose: rememberVerified judges `exp` by the machine's clock, as the verifier does.
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it('verifies a token once and answers its repeats from memory until it expires', async () => {
    const verify = vi.fn(async (token: string): Promise<AuthClaims> => ({ sub: token, exp: inAnHour() }));
    const remembered = rememberVerified(verify);
    expect(await remembered('a')).toMatchObject({ sub: 'a' });
    expect(await remembered('a')).toMatchObject({ sub: 'a' });
    expect(verify).toHaveBeenCalledTimes(1);

    // Past exp plus the verifier's 60 s leeway the token is verified again (and refused there).
    const expired = vi.fn(
      async (): Promise<AuthClaims> => ({ sub: 'b', exp: Math.floor(Date.now() / 1000) - 61 }),
    );
    const strict = rememberVerified(expired);
    await strict('b');
    await strict('b');
    expect(expired).toHaveBeenCalledTimes(2);
  });

  it('remembers nothing it could not verify, nor a token without exp, and forgets the oldest when full', async () => {
    const verify = vi.fn(async (token: string): Promise<AuthClaims> => {
      if (token === 'forged') throw new Error('signature verification failed');
      return token === 'forever' ? { sub: token } : { sub: token, exp: inAnHour() };
    });
    const remembered = rememberVerified(verify, 2);
    await expect(remembered('forged')).rejects.toThrow('signature');
    await expect(remembered('forged')).rejects.toThrow('signature');
    await remembered('forever');
    await remembered('forever');
    expect(verify).toHaveBeenCalledTimes(4);

    verify.mockClear();
    for (const token of ['x', 'y', 'z', 'y', 'z', 'x']) await remembered(token);
    // x, y, z verified; y and z remembered; x had been pushed out by z.
    expect(verify.mock.calls.map(([token]) => token)).toEqual(['x', 'y', 'z', 'x']);
  });
});
