// Resolve hook: @heroku/mcp-server imports '@modelcontextprotocol/sdk/server/mcp' without
// the '.js' extension, which Node's ESM resolver rejects; retry such specifiers with '.js'.
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(spec, ctx, next) {
  try { return await next(spec, ctx); }
  catch (e) {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && !/\\.[cm]?js$/.test(spec)) return next(spec + '.js', ctx);
    throw e;
  }
}`));
