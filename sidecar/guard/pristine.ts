// The DOM functions webcap's sensitivity checks use (is this a password
// field, does this click submit a POST form?), captured before any page
// script runs. Checks run in the page's own JavaScript world, where a page
// could redefine Element.prototype.getAttribute to make its password field
// read as "text" and skip the user's consent. The captured copies sit on a
// frozen, non-configurable window property that page scripts can neither
// replace nor shadow (a global `let` of that name is a SyntaxError).
import type { BrowserContext } from 'playwright';

export interface Pristine {
  attr(el: Element, name: string): string | null;
  tag(el: Element): string;
  lower(s: string): string;
  closest(el: Element, selector: string): Element | null;
  query(el: Element, selector: string): Element | null;
  byId(id: string): Element | null;
  /** The first match in the document; null for none, and for a selector the browser rejects. */
  docQuery(selector: string): Element | null;
  hasShadowRoots(): boolean;
  /** The current value of an input or textarea (undefined for anything else). */
  value(el: Element): string | undefined;
  /** autocomplete/name/id hints of a payment field (field-kind.ts PAYMENT, without RegExp: its exec is page-writable). */
  paymentHint(hint: string): boolean;
  /** The element focused in `root` (a document or an open shadow root), null for none. */
  active(root: Document | ShadowRoot): Element | null;
  /** The document inside an iframe or frame element; null when it is another origin's (or none). */
  frameDoc(el: Element): Document | null;
  /** An element's open shadow root (null for none or a closed one). */
  openShadow(el: Element): ShadowRoot | null;
  /** Focuses the element with the browser's own focus(), whatever the page redefined. */
  focus(el: Element): void;
  /** Resolves after one zero-delay timer: the handlers and timers focus set off have run. */
  tick(): Promise<void>;
  /** tick(), answering what `read` says then (undefined when it throws: the page's getters may). */
  tickRead<T>(read: () => T): Promise<T | undefined>;
  /** The topmost element at a point of the viewport (null outside it). */
  hitAt(x: number, y: number): Element | null;
  /** `node` is `el` or inside it (in its own tree). */
  within(el: Element, node: Node): boolean;
  /** The element's border box in the viewport. */
  box(el: Element): { x: number; y: number; width: number; height: number };
  /**
   * Until the next trusted `click` (or `ms`): every trusted pointer or mouse
   * event whose path does not pass through `el` is stopped before the page's
   * later listeners see it, and has its default prevented.
   */
  guardClick(el: Element, ms: number): void;
  /** Ends the guard; true when it stopped nothing. */
  clickLanded(): boolean;
  /** Whether the element matches the selector. */
  matches(el: Element, selector: string): boolean;
  /** Selects all the text of an input or textarea (what typing then replaces). */
  selectText(el: Element): void;
  /** Appends to an array the page's setters cannot intercept (an index on Array.prototype). */
  append<T>(list: T[], item: T): void;
  /** A <select>'s options, one by one, and whether it takes several. */
  optionCount(select: Element): number;
  optionAt(select: Element, index: number): Element | null;
  multiple(select: Element): boolean;
  /** An <option>'s value and label as the browser computes them, and whether it is selected. */
  optionValue(option: Element): string;
  optionLabel(option: Element): string;
  selected(option: Element): boolean;
  /** Selects exactly these options and dispatches input and change, as a person's choice does. */
  choose(select: Element, options: Element[]): void;
  /**
   * Arms the key guard: until disarmKeys(), every trusted key event is
   * stopped (default prevented, no later listener sees it) when the element
   * keys go to is a password or payment field whose kind is not in `approved`
   * (space-separated), or is inside a frame (its keys would bypass this
   * window); checked as each keydown, keypress and beforeinput starts and
   * whenever focus moves while one is dispatched. Once it stopped a key it
   * stops every later one, as it does once the page replaced its document
   * (document.open). `kind` reads one element's kind (field-kind.ts).
   */
  armKeys(approved: string, kind: (el: Element) => { kind: string }): void;
  /** Disarms it: the index of the first stopped key (-1: none) and why, and the keydowns it saw. */
  disarmKeys(): KeyRecord;
  /**
   * Arms the insertion guard for one insertion into `el` (web.fill): the next
   * trusted `beforeinput` of this window is stopped (default prevented, no
   * later listener sees it) unless `el` has focus, is its target and is
   * still plain by `kind` (or of a kind in `approved`, space-separated); then
   * the guard is off. Until disarmInsert().
   */
  armInsert(el: Element, kind: (el: Element) => { kind: string }, approved?: string): void;
  /**
   * Disarms it: 'ok' (the insertion went into the element), '' (none seen),
   * or why it was stopped: the kind that had focus or the element had turned
   * into ('password', 'payment'), 'frame', or 'moved' (another plain element).
   */
  disarmInsert(): string;
}

export interface KeyRecord { stopped: number; why: string; seen: number }

/** Runs in every frame of the context before its scripts (source sent as text: no closures). */
function capture(): void {
  const apply = Reflect.apply;
  const freeze = Object.freeze;
  const getter = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get!;
  const E = Element.prototype;
  const D = Document.prototype;
  const EV = Event.prototype;
  const R = DOMRectReadOnly.prototype;
  const f = {
    getAttribute: E.getAttribute, closest: E.closest, querySelector: E.querySelector,
    docQuerySelector: D.querySelector, getElementById: D.getElementById, createTreeWalker: D.createTreeWalker,
    nextNode: TreeWalker.prototype.nextNode, tagName: getter(E, 'tagName'), shadowRoot: getter(E, 'shadowRoot'),
    inputValue: getter(HTMLInputElement.prototype, 'value'), textareaValue: getter(HTMLTextAreaElement.prototype, 'value'),
    toLowerCase: String.prototype.toLowerCase, includes: String.prototype.includes, startsWith: String.prototype.startsWith,
    docActive: getter(D, 'activeElement'), shadowActive: getter(ShadowRoot.prototype, 'activeElement'),
    iframeDoc: getter(HTMLIFrameElement.prototype, 'contentDocument'), frameDoc: getter(HTMLFrameElement.prototype, 'contentDocument'),
    focus: HTMLElement.prototype.focus, svgFocus: SVGElement.prototype.focus, setTimeout: window.setTimeout, Promise: window.Promise,
    elementFromPoint: D.elementFromPoint, contains: Node.prototype.contains, rect: E.getBoundingClientRect,
    rectX: getter(R, 'x'), rectY: getter(R, 'y'), rectWidth: getter(R, 'width'), rectHeight: getter(R, 'height'),
    listen: EventTarget.prototype.addEventListener, unlisten: EventTarget.prototype.removeEventListener,
    composedPath: EV.composedPath, preventDefault: EV.preventDefault, stopNow: EV.stopImmediatePropagation, eventType: getter(EV, 'type'),
    defineProperty: Object.defineProperty, arrayLength: Object.getOwnPropertyDescriptor,
    selectLength: getter(HTMLSelectElement.prototype, 'length'), selectItem: HTMLSelectElement.prototype.item,
    selectMultiple: getter(HTMLSelectElement.prototype, 'multiple'),
    selectValueSet: Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!,
    optionValue: getter(HTMLOptionElement.prototype, 'value'), optionLabel: getter(HTMLOptionElement.prototype, 'label'),
    optionSelected: getter(HTMLOptionElement.prototype, 'selected'),
    optionSelect: Object.getOwnPropertyDescriptor(HTMLOptionElement.prototype, 'selected')!.set!,
    dispatch: EventTarget.prototype.dispatchEvent, Event: window.Event, construct: Reflect.construct,
    eventPhase: getter(EV, 'eventPhase'), MutationObserver: window.MutationObserver, observe: MutationObserver.prototype.observe,
    matches: E.matches, inputSelect: HTMLInputElement.prototype.select, textareaSelect: HTMLTextAreaElement.prototype.select,
  };
  // The click guard's state (guardClick / clickLanded): one guard at a time per document.
  const CLICK_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  let click: { stop: (event: Event) => void; missed: boolean; armed: boolean } | null = null;
  const disarm = (g: NonNullable<typeof click>) => {
    if (!g.armed) return;
    g.armed = false;
    for (let i = 0; i < CLICK_EVENTS.length; i++) apply(f.unlisten, window, [CLICK_EVENTS[i], g.stop, true]);
  };
  const doc = document;
  // One element's kind for the key and insertion guards: 'frame' for an element whose keys or text go to another
  // document, else what `kind` reads ('password' when it throws: fail closed).
  const kindAt = (el: Element, kind: (el: Element) => { kind: string }): string => {
    const tag = apply(f.toLowerCase, apply(f.tagName, el, []), []) as string;
    if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') return 'frame';
    try { return kind(el).kind; } catch { return 'password'; }
  };
  // The key guard's state (armKeys / disarmKeys); its listeners are the window's first, added before page scripts.
  const keys = { armed: false, approved: '', kind: (_el: Element) => ({ kind: 'password' }), stopped: -1, why: '', seen: 0, current: null as Event | null };
  /** Why keys must not go where focus is now ('' when they may): read down through open shadow roots. */
  const unsafe = (): string => {
    let root: Document | ShadowRoot = doc;
    let worst = '';
    for (let depth = 0; depth < 64; depth++) {
      let el: Element | null;
      try { el = apply(f.docActive, root, []) as Element | null; } catch { el = apply(f.shadowActive, root, []) as Element | null; }
      if (!el) return worst;
      const kind = kindAt(el, keys.kind);
      if (kind === 'frame') return 'frame';
      if ((kind === 'password' || kind === 'payment') && !apply(f.includes, keys.approved, [kind]) && worst !== 'password') worst = kind;
      const shadow = apply(f.shadowRoot, el, []) as ShadowRoot | null;
      if (!shadow) return worst;
      root = shadow;
    }
    return 'password';
  };
  const stop = (event: Event) => {
    apply(f.preventDefault, event, []);
    apply(f.stopNow, event, []);
  };
  const onKey = (event: Event) => {
    if (!keys.armed || !event.isTrusted) return;   // isTrusted: an own, unforgeable property
    const type = apply(f.eventType, event, []) as string;
    if (type === 'keydown') keys.seen += 1;
    if (keys.stopped < 0) {
      // A keyup or input comes after the key's text went in: focus moving then matters for the next key.
      if (type === 'keyup' || type === 'input') return;
      keys.current = event;
      const why = unsafe();
      if (!why) return;
      keys.stopped = keys.seen > 0 ? keys.seen - 1 : 0;
      keys.why = why;
    }
    stop(event);
  };
  // Focus moved (a page handler's focus(), or into a frame) while a key's text is still to go in: that key stops here.
  const onFocus = () => {
    const event = keys.current;
    if (!keys.armed || keys.stopped >= 0 || !event || apply(f.eventPhase, event, []) === 0) return;
    const why = unsafe();
    if (!why) return;
    keys.stopped = keys.seen > 0 ? keys.seen - 1 : 0;
    keys.why = why;
    apply(f.preventDefault, event, []);
  };
  // The insertion guard's state (armInsert / disarmInsert): one insertion into one element.
  const insert = { el: null as Element | null, kind: (_el: Element) => ({ kind: 'password' }), approved: '', outcome: '', passing: null as Event | null, into: null as Element | null };
  const onInsert = (event: Event) => {
    const el = insert.el;
    if (!el || !event.isTrusted) return;
    insert.el = null;
    const active = apply(f.docActive, doc, []) as Element | null;
    const path = apply(f.composedPath, event, []) as EventTarget[];
    let why = '';
    if (active !== el || path[0] !== el) {
      why = active ? kindAt(active, insert.kind) : 'moved';
      if (why === 'plain') why = 'moved';
    } else {
      const kind = kindAt(el, insert.kind);
      if (kind !== 'plain' && !(kind !== 'frame' && apply(f.includes, insert.approved, [kind]))) why = kind;
    }
    insert.outcome = why || 'ok';
    if (why) stop(event);
    else { insert.passing = event; insert.into = el; }
  };
  // Focus moved while the insertion let through is still dispatched (a page's own beforeinput listener): the
  // text would go where focus is now, so it is cancelled there.
  const onInsertFocus = () => {
    const event = insert.passing;
    if (!event || apply(f.eventPhase, event, []) === 0) { insert.passing = null; return; }
    const active = apply(f.docActive, doc, []) as Element | null;
    if (active === insert.into) return;
    apply(f.preventDefault, event, []);
    // A blur shows the body first, the focusin then where focus went: the worse reason is kept.
    const why = active ? kindAt(active, insert.kind) : 'moved';
    if (why !== 'plain' && (insert.outcome === 'ok' || insert.outcome === 'moved')) insert.outcome = why;
    else if (insert.outcome === 'ok') insert.outcome = 'moved';
  };
  const KEY_EVENTS = ['keydown', 'keypress', 'beforeinput', 'keyup', 'input'];
  const listen = () => {
    apply(f.listen, window, ['beforeinput', onInsert, true]);
    apply(f.listen, window, ['focus', onInsertFocus, true]);
    apply(f.listen, window, ['blur', onInsertFocus, true]);
    for (let i = 0; i < KEY_EVENTS.length; i++) apply(f.listen, window, [KEY_EVENTS[i], onKey, true]);
    apply(f.listen, window, ['focusin', onFocus, true]);
    apply(f.listen, window, ['blur', onFocus, true]);
  };
  listen();
  // document.open() erases every listener of the window and the document, these too. The emptied document
  // shows here as soon as the script that opened it returns, before the next key: the listeners go back (a
  // second add of the same one is a no-op), and while armed the key being dispatched and every later one stop.
  const watcher = new f.MutationObserver(() => {
    listen();
    if (!keys.armed || keys.stopped >= 0) return;
    const event = keys.current;
    const live = event !== null && apply(f.eventPhase, event, []) !== 0;
    keys.stopped = live && keys.seen > 0 ? keys.seen - 1 : keys.seen;
    keys.why = 'document';
    if (live) apply(f.preventDefault, event, []);
  });
  apply(f.observe, watcher, [doc, { childList: true }]);
  const pristine: Pristine = freeze({
    attr: (el: Element, name: string) => apply(f.getAttribute, el, [name]) as string | null,
    lower: (s: string) => apply(f.toLowerCase, s, []) as string,
    tag: (el: Element) => apply(f.toLowerCase, apply(f.tagName, el, []), []) as string,
    closest: (el: Element, sel: string) => apply(f.closest, el, [sel]) as Element | null,
    query: (el: Element, sel: string) => apply(f.querySelector, el, [sel]) as Element | null,
    byId: (id: string) => apply(f.getElementById, doc, [id]) as Element | null,
    docQuery: (sel: string) => {
      try { return apply(f.docQuerySelector, doc, [sel]) as Element | null; } catch { return null; }
    },
    hasShadowRoots: () => {
      const walk = apply(f.createTreeWalker, doc, [doc, 1]) as TreeWalker;
      for (let n = apply(f.nextNode, walk, []) as Element | null; n; n = apply(f.nextNode, walk, []) as Element | null) {
        if (apply(f.shadowRoot, n, [])) return true;
      }
      return false;
    },
    value: (el: Element) => {
      const tag = apply(f.toLowerCase, apply(f.tagName, el, []), []) as string;
      if (tag === 'input') return apply(f.inputValue, el, []) as string;
      if (tag === 'textarea') return apply(f.textareaValue, el, []) as string;
      return undefined;
    },
    paymentHint: (hint: string) => {
      const h = apply(f.toLowerCase, hint, []) as string;
      if (apply(f.startsWith, h, ['cc-'])) return true;
      const words = ['card', 'cvc', 'cvv', 'iban', 'expir'];     // an index loop: array iterators are page-writable
      for (let i = 0; i < words.length; i++) if (apply(f.includes, h, [words[i]])) return true;
      return false;
    },
    active: (root: Document | ShadowRoot) => {
      try { return apply(f.docActive, root, []) as Element | null; } catch { return apply(f.shadowActive, root, []) as Element | null; }
    },
    frameDoc: (el: Element) => {
      const tag = apply(f.toLowerCase, apply(f.tagName, el, []), []) as string;
      try {
        if (tag === 'iframe') return apply(f.iframeDoc, el, []) as Document | null;
        if (tag === 'frame') return apply(f.frameDoc, el, []) as Document | null;
      } catch { /* another realm's element that is no frame of ours */ }
      return null;
    },
    openShadow: (el: Element) => apply(f.shadowRoot, el, []) as ShadowRoot | null,
    focus: (el: Element) => {
      try { apply(f.focus, el, []); } catch { apply(f.svgFocus, el, []); }
    },
    tick: () => new f.Promise<void>((resolve) => { apply(f.setTimeout, window, [resolve, 0]); }),
    tickRead: <T>(read: () => T) => new f.Promise<T | undefined>((resolve) => {
      apply(f.setTimeout, window, [() => {
        let value: T | undefined;
        try { value = read(); } catch { /* undefined */ }
        resolve(value);
      }, 0]);
    }),
    hitAt: (x: number, y: number) => apply(f.elementFromPoint, doc, [x, y]) as Element | null,
    within: (el: Element, node: Node) => apply(f.contains, el, [node]) as boolean,
    box: (el: Element) => {
      const r = apply(f.rect, el, []) as DOMRect;
      return { x: apply(f.rectX, r, []) as number, y: apply(f.rectY, r, []) as number, width: apply(f.rectWidth, r, []) as number, height: apply(f.rectHeight, r, []) as number };
    },
    guardClick: (el: Element, ms: number) => {
      if (click) disarm(click);
      const g: NonNullable<typeof click> = { stop: () => undefined, missed: false, armed: true };
      g.stop = (event: Event) => {
        if (!event.isTrusted) return;   // an own, unforgeable property
        const path = apply(f.composedPath, event, []) as EventTarget[];
        let through = false;
        for (let i = 0; i < path.length; i++) if (path[i] === el) through = true;
        if (!through) {
          g.missed = true;
          apply(f.preventDefault, event, []);
          apply(f.stopNow, event, []);
        }
        if (apply(f.eventType, event, []) === 'click') disarm(g);
      };
      for (let i = 0; i < CLICK_EVENTS.length; i++) apply(f.listen, window, [CLICK_EVENTS[i], g.stop, true]);
      apply(f.setTimeout, window, [() => disarm(g), ms]);
      click = g;
    },
    clickLanded: () => {
      const g = click;
      click = null;
      if (!g) return true;
      disarm(g);
      return !g.missed;
    },
    matches: (el: Element, sel: string) => apply(f.matches, el, [sel]) as boolean,
    selectText: (el: Element) => {
      const tag = apply(f.toLowerCase, apply(f.tagName, el, []), []) as string;
      if (tag === 'input') apply(f.inputSelect, el, []);
      else if (tag === 'textarea') apply(f.textareaSelect, el, []);
    },
    append: <T>(list: T[], item: T) => {
      // The own length of an array literal is data the page cannot redefine; defineProperty skips setters.
      const at = (f.arrayLength(list, 'length') as PropertyDescriptor).value as number;
      // A descriptor without a prototype: a `get` the page put on Object.prototype is not read.
      f.defineProperty(list, at, { __proto__: null, value: item, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
    },
    optionCount: (el: Element) => apply(f.selectLength, el, []) as number,
    optionAt: (el: Element, i: number) => apply(f.selectItem, el, [i]) as Element | null,
    multiple: (el: Element) => apply(f.selectMultiple, el, []) as boolean,
    optionValue: (el: Element) => apply(f.optionValue, el, []) as string,
    optionLabel: (el: Element) => apply(f.optionLabel, el, []) as string,
    selected: (el: Element) => apply(f.optionSelected, el, []) as boolean,
    choose: (el: Element, options: Element[]) => {
      // As Playwright's selectOptions: clear the choice, select each, then input (bubbles, composed) and change (bubbles).
      apply(f.selectValueSet, el, [undefined]);
      for (let i = 0; i < options.length; i++) apply(f.optionSelect, options[i], [true]);
      // Init dictionaries without a prototype: a `cancelable` the page put on Object.prototype is not read.
      apply(f.dispatch, el, [f.construct(f.Event, ['input', { __proto__: null, bubbles: true, cancelable: false, composed: true }])]);
      apply(f.dispatch, el, [f.construct(f.Event, ['change', { __proto__: null, bubbles: true, cancelable: false, composed: false }])]);
    },
    armKeys: (approved: string, kind: (el: Element) => { kind: string }) => {
      keys.armed = true;
      keys.approved = approved;
      keys.kind = kind;
      keys.stopped = -1;
      keys.why = '';
      keys.seen = 0;
      keys.current = null;
    },
    disarmKeys: () => {
      const record = { stopped: keys.stopped, why: keys.why, seen: keys.seen };
      keys.armed = false;
      keys.current = null;
      return record;
    },
    armInsert: (el: Element, kind: (el: Element) => { kind: string }, approved?: string) => {
      insert.el = el;
      insert.kind = kind;
      insert.approved = typeof approved === 'string' ? approved : '';
      insert.outcome = '';
    },
    disarmInsert: () => {
      insert.el = null;
      insert.passing = null;
      const outcome = insert.outcome;
      insert.outcome = '';
      return outcome;
    },
  });
  Object.defineProperty(window, '__webcapPristine', { value: pristine, writable: false, enumerable: false, configurable: false });
}

export async function installPristine(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: `(${capture.toString()})();` });
}
