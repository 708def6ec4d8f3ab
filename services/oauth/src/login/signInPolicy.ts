// The checks oidc-provider's login prompt runs beyond its own: a session made before the
// account's password or factors were reset signs in again, and a session without a second
// factor steps up when the community or the client asks for one (or the account has one).
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { asksForMfa } from '../domain/authMethods.ts';
import type { AccountStore } from '../store/accountStore.ts';
import type { FactorStore } from '../store/factorStore.ts';
import type { SignInSettingsStore } from '../store/signInSettings.ts';

export interface SignInPolicyDeps {
  accounts: AccountStore;
  factors: FactorStore;
  settings: SignInSettingsStore;
}

const { Check, base } = interactionPolicy;

export function signInPolicy(deps: SignInPolicyDeps, community: { id: string; name: string }) {
  const policy = base();
  const login = policy.get('login')!;
  const account = async (ctx: KoaContextWithOIDC) => {
    const accountId = ctx.oidc.session?.accountId;
    return accountId ? deps.accounts.find(community.id, accountId) : undefined;
  };
  login.checks.add(
    new Check(
      'credentials_changed',
      'the account was recovered since this session began',
      async (ctx) => {
        // the sign-in this authorization resumes from was made just now, with today's credentials
        if (ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
        const changedAt = (await account(ctx))?.credentialsChangedAt;
        if (!changedAt) return Check.NO_NEED_TO_PROMPT;
        const authTime = ctx.oidc.session?.authTime() ?? 0;
        // authTime has whole seconds: a session begun in the second of the change is older
        return changedAt.getTime() >= authTime * 1000
          ? Check.REQUEST_PROMPT
          : Check.NO_NEED_TO_PROMPT;
      },
    ),
  );
  login.checks.add(
    new Check('second_factor', 'a second factor is required', async (ctx) => {
      const { session, params } = ctx.oidc;
      if (!session?.accountId || session.amr?.includes('mfa')) return Check.NO_NEED_TO_PROMPT;
      const settings = await deps.settings.get(community);
      if (settings.mfaPolicy === 'off') return Check.NO_NEED_TO_PROMPT;
      if (settings.mfaPolicy === 'required' || asksForMfa(params as Record<string, unknown>))
        return Check.REQUEST_PROMPT;
      const factors = await deps.factors.list(community.id, session.accountId);
      return factors.some((factor) => settings.mfaFactors.includes(factor.kind))
        ? Check.REQUEST_PROMPT
        : Check.NO_NEED_TO_PROMPT;
    }),
  );
  return policy;
}
