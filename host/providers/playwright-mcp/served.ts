// The capabilities the playwright-mcp provider serves (actions.ts); any other
// browser capability is capability_disabled, refused by the enabled policy
// before anyone is asked for consent, and not offered as an MCP tool.
export const PLAYWRIGHT_MCP_SERVES = [
  'web.open', 'web.navigate', 'web.click', 'web.fill', 'web.keypress', 'web.wait', 'web.scroll',
  'web.extract', 'web.screenshot', 'web.snapshot', 'web.close', 'web.consent.handle',
] as const;
