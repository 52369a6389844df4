// One typed descriptor per message serves both ends of the stdio JSON-RPC wire
// (the LSP pattern): host/ sends with it, sidecar/ handles with it.
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { WireError } from './errors.js';
import type { SiteProfile } from './site-profile.js';

/** What the host tells the sidecar once, before any action. */
export interface SidecarInit {
  workspace: string;                 // files the sidecar may write (screenshots, downloads)
  /** webcap's own files, which may sit in the workspace: never uploaded to a page. */
  chain_path?: string;
  log_path?: string;
  browser: {
    headless: boolean;
    executable_path?: string;
    remote?: { kind: 'playwright' | 'cdp'; endpoint: string };
    user_agent?: string;
    max_concurrent_sessions: number;
    /** Over max_concurrent_sessions, web.open waits for a slot ("wait", the default) or fails at once. */
    session_queue?: 'wait' | 'fail';
    idle_timeout_s: number;
    default_timeout_ms: number;
    viewport: { width: number; height: number };
    auto_accept_cookies: boolean | 'per_site';
    ignore_https_errors?: boolean;
    /** How alert/confirm/prompt are answered (beforeunload is always accepted); default dismiss. */
    dialogs?: 'dismiss' | 'accept';
    /** web.evaluate may run (the host checks first; the sidecar refuses too). */
    evaluate_enabled?: boolean;
  };
  network: {
    resolve: Record<string, string>;
    allow_private: string[];
    domains_allowlist: string[];
    domains_denylist: string[];
  };
  /** Playwright traces per session (sidecar/trace.ts); absent: off. */
  trace?: 'off' | 'on-failure' | 'always';
  /** Address:port pairs no page may reach whatever allow_private says (the host's console); more may follow by notification. */
  refuse_endpoints?: Array<{ host: string; port: number }>;
  /** The site profiles, read and validated by the host (host/profiles/site-profiles.ts). */
  profiles: SiteProfile[];
  /** Checks made where the effect happens (sidecar/guard/effect-gate.ts); absent: both on. */
  effects?: {
    /** [consent] gate_requests: hold state-changing requests until the host's consent gate answers. */
    gate_requests: boolean;
    /** respect_robots: ask the host's robots cache before every top-level navigation. */
    robots: boolean;
  };
  /** [secrets] dlp: the network guard refuses requests carrying a resolved secret off its origins; absent: on. */
  secrets?: { dlp: boolean };
}

export interface InvokeParams {
  capability: string;
  params: Record<string, unknown>;
  /**
   * Who makes the call (a plan run, an MCP client, a command, a library scope).
   * The sidecar keeps each owner's sessions apart: a call reaches only sessions
   * its owner opened, and one without `session` goes to its owner's latest.
   */
  owner: string;
  /**
   * The calling client's own domains_allowlist ([[mcp.clients]]), which narrows
   * the host's: every request of a session or page this call opens must match
   * both (the network guard), whatever the page then loads or navigates to.
   */
  narrowed?: { client: string; domains_allowlist: readonly string[] };
  /** Set by the host when it already knows which session a plan uses. */
  plan_id?: string;
}

type InvokeResult = Record<string, unknown>;

export const InitRequest = new RequestType<SidecarInit, { pid: number }, WireError>('webcap/init');
export const InvokeRequest = new RequestType<InvokeParams, InvokeResult, WireError>('webcap/invoke');
export const ShutdownRequest = new RequestType0<void, WireError>('webcap/shutdown');
/**
 * A web.open is on its way: launch Chromium now, so its start overlaps the host's remaining checks.
 * `spare`: make the next session's context and page too (the open on its way names no session and
 * brings no viewport, profile or client allowlist of its own).
 */
export interface PrelaunchParams { spare?: boolean }
export const PrelaunchNotification = new NotificationType<PrelaunchParams>('webcap/prelaunch');

/** A request the page made that the sidecar's network guard aborted. */
export interface BlockedRequest {
  session: string;
  url: string;
  host: string;
  kind: string;          // resource type: document, image, fetch, websocket, …
  code: 'not_allowlisted' | 'ssrf_blocked' | 'unsupported_scheme' | 'consent_denied' | 'robots_disallowed';
  reason: string;
  /** Refused because it carried this vault secret (its name) to an origin it is not bound to. */
  secret?: string;
}
export const BlockedNotification = new NotificationType<BlockedRequest>('webcap/blocked');

/**
 * Sidecar-side events the host should record (session closed for idleness,
 * browser died, …). `browser_crashed` lists in detail.sessions every session
 * lost with the browser (name and owner), all released at once.
 */
export interface SidecarEvent { kind: string; session?: string; detail?: Record<string, unknown> }
export const EventNotification = new NotificationType<SidecarEvent>('webcap/event');

/** How many web.open calls wait for a session slot now (sent whenever the number changes): the host's queued gauge. */
export const SessionQueueNotification = new NotificationType<{ queued: number }>('webcap/session-queue');

/**
 * The sidecar found that an action is sensitive only once it saw the page (a
 * password field, a POST form submit). It asks the host, which asks the user:
 * approval never comes from the page. `secret` is a value the host must redact
 * from then on.
 */
export interface SensitiveAction {
  capability: string;
  session: string;
  url: string;
  selector?: string;
  reason: 'password_field' | 'payment_field' | 'form_submit' | 'upload' | 'evaluate' | 'cookie_banner';
  secret?: string;
  /** Shown to the user with the question (e.g. a cookie banner's text). Page text: never an answer. */
  details?: Record<string, unknown>;
}
/** A refusal's reason is shown to the caller as is; timed_out: the question waited for the console until [consent] timeout_s. */
interface ConsentReply { approved: boolean; reason?: string; timed_out?: boolean }
export const SensitiveRequest = new RequestType<SensitiveAction, ConsentReply, WireError>('webcap/sensitive');

/**
 * A state-changing request (a non-GET navigation, a POST/PUT/PATCH/DELETE
 * fetch, XHR or beacon) that the page sent while an action ran: the sidecar
 * holds it until the host's consent gate answers (sidecar/guard/effect-gate.ts).
 */
export interface EffectConsent {
  /** The action the request is attributed to. */
  capability: string;
  session: string;
  method: string;
  url: string;
  /** Resource type: document, fetch, xhr, ping, … */
  resource: string;
  page_url: string;
}
export const EffectConsentRequest = new RequestType<EffectConsent, ConsentReply, WireError>('webcap/effect-consent');

/** A top-level navigation about to leave the browser: may robots.txt (the host's cache) let it? */
export interface NavigationCheck { session: string; capability?: string; url: string }
export const RobotsCheckRequest = new RequestType<NavigationCheck, { allowed: boolean; reason: string; rule?: string }, WireError>('webcap/robots-check');

/**
 * A `{{secret:NAME}}` or `{{totp:NAME}}` about to be typed into a frame of
 * `origin` (scheme://host[:port], read from the browser, not the page). The
 * host checks the binding, asks the user the first time per origin, and only
 * then sends the value (a TOTP seed as an otpauth:// URI), over this pipe and
 * nowhere else.
 */
export interface SecretResolve { session: string; capability: string; kind: 'secret' | 'totp'; name: string; origin: string }
export type SecretAnswer =
  | { ok: true; kind: 'secret' | 'totp'; value: string; origins: string[] }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };
export const SecretRequest = new RequestType<SecretResolve, SecretAnswer, WireError>('webcap/secret');

/**
 * The person's window (host/console): a picture of the page at the moment a
 * question is asked, the target element outlined and password/payment fields
 * masked, plus what a form around the target would send (field names only).
 */
export interface EvidenceParams { session: string; selector?: string }
export interface Evidence {
  /** PNG, base64; absent when the page could not be captured in time. */
  png?: string;
  url: string;
  title: string;
  /** The element's description (tag, name, label), when the selector found one. */
  element?: string;
  form?: { method: string; action: string; fields: string[] };
}
export const EvidenceRequest = new RequestType<EvidenceParams, Evidence, WireError>('webcap/evidence');

/** An address:port no governed browser may reach (the console): refused like an SSRF target, whatever allow_private says. */
export interface RefuseEndpoint { host: string; port: number }
export const RefuseEndpointNotification = new NotificationType<RefuseEndpoint>('webcap/refuse-endpoint');

/** Stop: abort what the session's pages are doing; until the next call on it, nothing leaves the session. */
interface StopSession { session: string }
export const StopRequest = new RequestType<StopSession, { stopped: boolean }, WireError>('webcap/stop');

/** The console's live view: frames of a session's page, only while someone watches (CDP Page.startScreencast). */
interface ScreencastToggle { session: string; on: boolean }
export const ScreencastRequest = new RequestType<ScreencastToggle, { on: boolean }, WireError>('webcap/screencast');
interface ScreencastFrame { session: string; jpeg: string }
export const FrameNotification = new NotificationType<ScreencastFrame>('webcap/frame');

/**
 * web.handoff: the person drives a session from the console and hands it
 * back. The sidecar asks the host (which waits for Done, the timeout or Stop);
 * meanwhile the host forwards the person's input to that session only.
 */
export interface HandoffAsk { session: string; reason: string; timeout_s: number; url: string; title: string; viewport: { width: number; height: number } }
export type HandoffOutcome = 'handed_back' | 'timeout' | 'stopped' | 'no_console';
export interface HandoffReply { outcome: HandoffOutcome; console_url?: string }
export const HandoffRequest = new RequestType<HandoffAsk, HandoffReply, WireError>('webcap/handoff');

/** One input of the person's, in page (viewport) pixels; text is typed, never recorded. */
export type PersonInput =
  | { type: 'move' | 'down' | 'up'; x: number; y: number; button?: 'left' | 'middle' | 'right' }
  | { type: 'wheel'; x: number; y: number; dx: number; dy: number }
  | { type: 'key'; key: string }
  | { type: 'text'; text: string };
interface PersonInputBatch { session: string; events: PersonInput[] }
export const InputRequest = new RequestType<PersonInputBatch, { delivered: number }, WireError>('webcap/input');
