// The library: createHost() and the error type callers branch on.
export { createHost, type Host, type HostScope, type HostOptions, type CallOptions, type CallArgs, type CapabilityCall } from './host.js';
// Each capability's params and result, generated from its manifest.
export type * from '../manifests/types.generated.js';
export { WebcapError, ERROR_CODES, type ErrorCode } from '../manifests/errors.js';
export type { Manifest } from '../manifests/load.js';
export type { Asker, ConsentQuestion, ConsentAnswer } from './consent/asker.js';
export type { StepLog, PlanOptions } from './rtfs/plan-runner.js';
export type { WebcapConfig } from './config/types.js';
export type { Candidate, WrittenPlan } from './discovery/index.js';
// The MCP server, for a program that embeds it (any transport) or serves it over HTTP.
export { createMcpServer, createMcpHub, type McpOptions, type McpHub, type WebcapMcp } from './mcp/server.js';
export { startMcpHttp, type McpHttpOptions, type McpHttpServer } from './mcp/http.js';
// The console: host.console({ listen }) serves it; these are its options and handle.
export type { ConsoleOptions, ConsoleServer } from './console/server.js';
