// src/sign-in.ts — who is at the consent page. Replace it with yours: read your session cookie, or
// send the person to your identity provider and back. This stand-in is for trying the flow under
// `wrangler dev`: with DEV_SIGN_IN=true (in .dev.vars) it signs in whoever `?user=` names, so
// anyone can be anyone; without it, it signs nobody in.
export async function signIn(request: Request, env: { DEV_SIGN_IN?: string }): Promise<string | Response> {
  if (env.DEV_SIGN_IN !== 'true')
    return new Response('No sign-in yet: replace src/sign-in.ts with your own.', { status: 501 });
  const user = new URL(request.url).searchParams.get('user');
  return (
    user || new Response('Add ?user=<name> to the authorization URL to sign in as <name>.', { status: 400 })
  );
}
