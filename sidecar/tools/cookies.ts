// web.cookies.get / web.cookies.set on the session's context.
import { WebcapError } from '../../manifests/errors.js';
import { pageTool } from '../tool.js';

type Cookie = Parameters<import('playwright').BrowserContext['addCookies']>[0][number];

export const cookiesGet = pageTool('web.cookies.get', async ({ session }, params) => {
  const cookies = await session.context.cookies(params.urls ?? []);
  return { cookies };
});

export const cookiesSet = pageTool('web.cookies.set', async ({ session }, params) => {
  const cookies = params.cookies;
  cookies.forEach((c, i) => {
    if (!c.url && !(c.domain && c.path)) {
      throw new WebcapError('invalid_params', `web.cookies.set: cookie ${i} ("${c.name}") needs url, or domain and path`, { field: `cookies.${i}` });
    }
  });
  await session.context.addCookies(cookies);
  return { ok: true, count: cookies.length };
});
