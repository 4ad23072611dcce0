/**
 * `<vacancy-board>`: a vendor's career page on the Vendor Vacancy API in one tag (README.md beside this file).
 *
 *   <script type="module" src="vacancy-board.js"></script>
 *   <vacancy-board api="https://api.example.az" key="vvp_…" lang="az"></vacancy-board>
 *
 * The list with search, type, city, category and workplace choices (with the API's facet counts) and experience;
 * each vacancy's cities (a city choice finds a vacancy by any of them), pay (Intl.NumberFormat, in the board's language, with its currency and period) and workplace; pages by the
 * links the API hands out (opaque: they carry a cursor); Azerbaijani and English; a job page that puts the
 * vacancy's schema.org JobPosting into document.head. Its state lives in the page's URL (back, forward, shareable
 * links). A job page of a vacancy that has closed (the API's 410) says so — the company's, and when it closed — with
 * no JobPosting and a robots `noindex` in document.head while it shows. On a narrow screen the filters fold behind a button; a skip link is the
 * keyboard's first stop. Stored text wraps anywhere and is isolated in its own direction. A plain ES module with no
 * dependency, in a shadow root: styled by `--vb-*` custom properties and `::part()`, nothing else leaks in or out.
 */

/** The filters the API takes (docs/api.md), by the names the API and the page's URL use. */
const PARAMS = ['q', 'type', 'city', 'category', 'workplace', 'experience_min', 'experience_max'];
/** What the `filters` attribute may name (all shown by default); `experience` is the pair of bounds. */
const SHOWN = ['q', 'type', 'city', 'category', 'workplace', 'experience'];
/** The facets the API counts (docs/api.md#facets), shown as checkboxes but for `type`. */
const FACETS = ['type', 'city', 'category', 'workplace'];
const CHOICES = FACETS.slice(1);
/** The names the board owns in the page's query string. */
const OWNED = [...PARAMS, 'page', 'job', 'lang'];

/** @typedef {{ code: string | number, label: string, count: number }} Facet */
/** @typedef {Record<string, string>} Filters */
/** @typedef {{ f: Filters, page: number, job: string, lang: string }} State */

const TEXT = {
  az: {
    language: 'Dil',
    filters: 'Vakansiya axtarışı',
    skip: 'Vakansiyalara keç',
    fold: 'Filtrlər',
    q: 'Axtarış',
    type: 'Növ',
    city: 'Şəhər',
    category: 'Kateqoriya',
    workplace: 'İş yeri',
    places: { onsite: 'Ofisdə', hybrid: 'Hibrid', remote: 'Uzaqdan' },
    per: { hour: '/ saat', day: '/ gün', week: '/ həftə', month: '/ ay', year: '/ il' },
    experience_min: 'Təcrübə, ən az (il)',
    experience_max: 'Təcrübə, ən çox (il)',
    any: 'Hamısı',
    types: ['Tam iş günü', 'Yarım iş günü', 'Uzaqdan', 'Təcrübə proqramı'],
    show: 'Axtar',
    loading: 'Yüklənir…',
    found: (n) => `${n} vakansiya`,
    pages: 'Səhifələr',
    page: (c, l) => `Səhifə ${c} / ${l}`,
    prev: '← Əvvəlki',
    next: 'Növbəti →',
    noMatch: 'Heç bir vakansiya uyğun gəlmir — filtrləri təmizləyin.',
    none: 'Hazırda açıq vakansiya yoxdur.',
    clear: 'Filtrləri təmizlə',
    deadline: 'Son tarix',
    requirements: 'Tələblər',
    responsibilities: 'Vəzifələr',
    salary: 'Maaş',
    apply: 'Müraciət et',
    back: '← Bütün vakansiyalar',
    closed: 'Bu vakansiya bağlanıb.',
    closedAt: 'Bağlanıb',
    unreachable: 'API-yə qoşulmaq mümkün olmadı.',
    origin: (o) => `Bu səhifənin origin-i ${o}: açar onun üçün verilməyib.`,
    wait: (s) => `${s} saniyədən sonra yenidən cəhd edin.`,
    retry: 'Yenidən cəhd et',
  },
  en: {
    language: 'Language',
    filters: 'Vacancy search',
    skip: 'Skip to the vacancies',
    fold: 'Filters',
    q: 'Search',
    type: 'Type',
    city: 'City',
    category: 'Category',
    workplace: 'Workplace',
    places: { onsite: 'On-site', hybrid: 'Hybrid', remote: 'Remote' },
    per: { hour: 'an hour', day: 'a day', week: 'a week', month: 'a month', year: 'a year' },
    experience_min: 'Experience, at least (years)',
    experience_max: 'Experience, at most (years)',
    any: 'Any',
    types: ['Full Time', 'Part Time', 'Remote', 'Internship'],
    show: 'Search',
    loading: 'Loading…',
    found: (n) => `${n} ${n === 1 ? 'vacancy' : 'vacancies'}`,
    pages: 'Pages',
    page: (c, l) => `Page ${c} of ${l}`,
    prev: '← Previous',
    next: 'Next →',
    noMatch: 'No vacancy matches — clear the filters.',
    none: 'No open vacancies right now.',
    clear: 'Clear the filters',
    deadline: 'Deadline',
    requirements: 'Requirements',
    responsibilities: 'Responsibilities',
    salary: 'Salary',
    apply: 'Apply',
    back: '← All vacancies',
    closed: 'This vacancy has closed.',
    closedAt: 'Closed',
    unreachable: 'The API could not be reached.',
    origin: (o) => `This page's origin is ${o}: the key was not issued for it.`,
    wait: (s) => `Try again in ${s} s.`,
    retry: 'Try again',
  },
};
/**
 * The API's 403 to a publishable key used from an origin not among its own (docs/api.md#from-a-web-page): the board
 * names the page's origin under it.
 */
const ORIGIN_REFUSED = 'This origin may not use this key.';
const LANGS = /** @type {const} */ ({ az: 'Azərbaycanca', en: 'English' });

const STYLE = `:host{display:block;font:var(--vb-font,inherit);color:var(--vb-color,#1d2430);background:var(--vb-background,transparent);--a:var(--vb-accent,#0b57d0);--b:var(--vb-border,#767676);--r:var(--vb-radius,.375rem);--g:var(--vb-gap,.75rem)}
[hidden]{display:none!important}*{box-sizing:border-box}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}
h2{flex:1 1 12rem;margin:.25rem 0;font-size:1.5em;min-height:1.2em}h2:empty{visibility:hidden}h3{margin:0 0 .25rem;font-size:1.15em}h4{margin:1rem 0 .25rem}
form{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,13rem),1fr));gap:var(--g);padding:var(--g);margin:var(--g) 0;border:1px solid var(--b);border-radius:var(--r)}
label,legend{font-weight:600;font-size:.9em}form>label{display:flex;flex-direction:column;justify-content:space-between}
input,select{display:block;width:100%;margin-top:.25rem;min-height:2.5rem;font:inherit;padding:.4rem .5rem;border:1px solid var(--b);border-radius:var(--r);background:var(--vb-field-background,#fff);color:inherit}
fieldset{grid-column:1/-1;border:0;padding:0;margin:0;min-width:0}
fieldset div{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin-top:.25rem}
fieldset label{display:flex;gap:.4rem;align-items:center;font-weight:400;min-height:2rem}
fieldset input{width:auto;min-height:0;margin:0}
button{font:inherit;cursor:pointer;min-height:2.5rem;padding:.4rem .9rem;border-radius:var(--r);border:1px solid var(--a);background:var(--a);color:var(--vb-accent-text,#fff)}
form button{align-self:end;justify-self:start}[part=back]{display:inline-block;margin:.5rem 0 1rem}article h3{font-size:1.4em}
[aria-pressed=false]{background:transparent;color:var(--a)}
a{color:var(--a)}:focus-visible{outline:3px solid var(--vb-focus,#b34700);outline-offset:2px}
ul{list-style:none;padding:0;margin:0}li{padding:.75rem 0;border-bottom:1px solid var(--vb-line,#d0d4da)}
.m{color:var(--vb-muted,#4a5361);font-size:.9em;margin:0}
nav{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:center;margin:1rem 0}
nav a{padding:.5rem}
[role=alert]{border-left:4px solid var(--vb-error,#b3261e);padding:.5rem 1rem;background:var(--vb-error-background,#fdecea)}
article p{white-space:pre-line}[aria-busy=true]{opacity:.6}
.s:not(:focus){position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
[part~=fold]{display:none;margin:var(--g) 0}@media (max-width:40rem){[part~=fold]{display:block}form:not(.o){display:none}}
h2,h3,h4,p,li,label,legend,a{overflow-wrap:anywhere}`;

/**
 * An element with attributes (a `part` among them), event handlers (`onclick`…) and children; text is always
 * text, never parsed as HTML.
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node | string | null | undefined | false | (Node | string | null | undefined | false)[])} children
 */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('on')) element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (value === true) element.setAttribute(name, '');
    else if (value !== undefined && value !== null && value !== false)
      element.setAttribute(name, String(value));
  }
  for (const child of children.flat(2)) if (child || child === '') element.append(child);
  return element;
}

/** A refusal or failure of the API, as the board shows it: the envelope's `message`, its wait and fields. */
class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} [status]
   * @param {string | null} [retryAfter]
   * @param {Record<string, string[]>} [errors]
   * @param {string} [closedAt] a 410's `closed_at`: when the vacancy closed
   */
  constructor(message, status = 0, retryAfter = null, errors = undefined, closedAt = undefined) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
    this.errors = errors;
    this.closedAt = closedAt;
  }
}

/** A plain left click: the others (a new tab, a download) are left to the browser. */
const plainClick = (/** @type {MouseEvent} */ e) =>
  !(e.button || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey);

/**
 * The `<vacancy-board>` element: its attributes (README.md) say where the API is, the key, the language, the page
 * size, the filters shown and the first ones; the page's URL says what it shows.
 */
export class VacancyBoard extends HTMLElement {
  static observedAttributes = [
    ...['api', 'key', 'lang', 'per-page', 'filters', 'job', 'job-url', 'list-url'],
    ...PARAMS.map((n) => n.replace('_', '-')),
  ];

  /** @type {State} */ #s = { f: {}, page: 1, job: '', lang: 'az' };
  /** The API's link for the page shown, when one was followed (it carries the cursor). @type {string} */ #link =
    '';
  /** @type {AbortController | undefined} */ #abort;
  /** @type {Record<string, HTMLElement>} */ #el = {};
  #title = '';
  /** Set when the next render should move the focus (to the status, the job's heading or a job's link). */
  #focus = '';
  #ready = false;
  #popstate = () => this.#fromUrl(true);
  #keydown = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Escape' && this.#s.job) this.#back();
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const t = TEXT.az;
    const el = this.#el;
    el.company = h('h2', { part: 'company', dir: 'auto' });
    el.langs = h(
      'div',
      { role: 'group', part: 'languages' },
      Object.entries(LANGS).map(([code, name]) =>
        h(
          'button',
          {
            type: 'button',
            lang: code,
            part: 'language',
            onclick: () => this.#language(code),
          },
          name,
        ),
      ),
    );
    el.form = h(
      'form',
      {
        role: 'search',
        part: 'filters',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          this.#apply();
        },
        onchange: () => this.#apply(),
      },
      h(
        'label',
        { 'data-f': 'q' },
        h('span'),
        h('input', { type: 'search', name: 'q', maxlength: 100, part: 'search' }),
      ),
      h('label', { 'data-f': 'type' }, h('span'), h('select', { name: 'type' })),
      ...CHOICES.map((name) =>
        h('fieldset', { 'data-f': name, part: 'facet', hidden: true }, h('legend'), h('div')),
      ),
      ...['experience_min', 'experience_max'].map((name) =>
        h(
          'label',
          { 'data-f': 'experience' },
          h('span'),
          h('input', { type: 'number', name, min: 0, max: 100, inputmode: 'numeric' }),
        ),
      ),
      h('button', { type: 'submit', part: 'button' }, t.show),
    );
    // On a narrow screen (40rem and less) the filters fold behind this button, so that the first vacancy shows
    // without scrolling; wider, the button is not there.
    el.fold = h('button', {
      type: 'button',
      part: 'button fold',
      'aria-expanded': 'false',
      'aria-controls': 'f',
      onclick: () => {
        const open = el.form.classList.toggle('o');
        el.fold.setAttribute('aria-expanded', String(open));
      },
    });
    el.form.id = 'f';
    // For the keyboard: the first stop of the board goes past the filters to the status line, above the list.
    el.skip = h(
      'a',
      {
        href: '#',
        class: 's',
        part: 'skip',
        onclick: (/** @type {Event} */ e) => {
          e.preventDefault();
          el.status.focus();
        },
      },
      t.skip,
    );
    el.status = h('p', { role: 'status', part: 'status', tabindex: -1, class: 'm' });
    el.content = h('div', { part: 'content' });
    // Until the first answer, only the header and a line saying it loads: what comes then is added below them, and
    // nothing on screen moves (no layout shift). Later loads say so in the status line.
    el.wait = h('p', { part: 'status', class: 'm' });
    el.main = h('div', { hidden: true }, el.fold, el.form, el.status, el.content);
    el.board = h(
      'div',
      { part: 'board' },
      el.skip,
      h('header', { part: 'header' }, el.company, el.langs),
      el.wait,
      el.main,
    );
    root.append(h('style', {}, STYLE), el.board);
  }

  connectedCallback() {
    this.#ready = true;
    addEventListener('popstate', this.#popstate);
    this.addEventListener('keydown', this.#keydown);
    this.#fromUrl();
  }

  disconnectedCallback() {
    removeEventListener('popstate', this.#popstate);
    this.removeEventListener('keydown', this.#keydown);
    this.#ready = false;
    this.#abort?.abort();
    this.#jsonLd('');
    this.#noindex(false);
    this.#setTitle('');
  }

  attributeChangedCallback() {
    if (this.#ready) this.#fromUrl();
  }

  get #t() {
    return TEXT[/** @type {'az' | 'en'} */ (this.#s.lang)];
  }

  get #defaultLang() {
    const lang = this.getAttribute('lang');
    return lang === 'en' ? 'en' : 'az';
  }

  /** The filters the vendor shows (the `filters` attribute, all by default). */
  get #shown() {
    const names = this.getAttribute('filters')
      ?.split(/[\s,]+/)
      .filter((n) => SHOWN.includes(n));
    return names ?? SHOWN;
  }

  /** The API's address of a route (a base URL may carry a stage's path: `…/prod`). */
  #api(path) {
    return `${(this.getAttribute('api') ?? '').replace(/\/+$/, '')}/vendor/vacancies${path}`;
  }

  /**
   * Reads the state from the page's URL (or, when it names none, from the attributes), then shows it. Back and
   * forward keep the language the visitor chose (it is not a step in history): the entry's URL is set to say it.
   */
  #fromUrl(popstate = false) {
    const q = new URLSearchParams(location.search);
    const own = OWNED.some((n) => q.has(n));
    /** @type {Filters} */
    const f = {};
    for (const n of PARAMS) {
      const v = own ? q.get(n) : this.getAttribute(n.replace('_', '-'));
      if (v) f[n] = v;
    }
    const lang = q.get('lang');
    this.#s = {
      f,
      page: Math.max(1, Number.parseInt(q.get('page') ?? '', 10) || 1),
      job: this.getAttribute('job') ?? q.get('job') ?? '',
      lang: popstate ? this.#s.lang : lang === 'az' || lang === 'en' ? lang : this.#defaultLang,
    };
    if (popstate) history.replaceState(history.state, '', this.#href(this.#s));
    // The link the board followed to this page, kept in the history entry; only ever one of the API's.
    const link = history.state?.vacancyBoard;
    this.#link = typeof link === 'string' && link.startsWith(this.#api('?')) ? link : '';
    void this.#load();
  }

  /**
   * The page's URL for a state: the board's names in the query set, the page's own left as they are. A filter an
   * attribute sets that the visitor cleared is there empty (`q=`): a URL without it would mean the attributes' again.
   */
  #href(/** @type {State} */ s) {
    const url = new URL(location.href);
    for (const n of OWNED) url.searchParams.delete(n);
    for (const n of PARAMS)
      if (s.f[n]) url.searchParams.set(n, s.f[n]);
      else if (this.getAttribute(n.replace('_', '-'))) url.searchParams.set(n, '');
    if (s.page > 1) url.searchParams.set('page', String(s.page));
    if (s.job) url.searchParams.set('job', s.job);
    if (s.lang !== this.#defaultLang) url.searchParams.set('lang', s.lang);
    return url.href;
  }

  /**
   * Goes to another state: a new history entry (so back and forward work), then the load.
   * @param {Partial<State>} change
   * @param {string} [link] the API's link for the new page, when it is one the API handed out
   */
  #go(change, link = '') {
    const s = { ...this.#s, ...change };
    this.#link = link;
    history.pushState({ vacancyBoard: link, fromList: !!change.job && !this.#s.job }, '', this.#href(s));
    this.#s = s;
    void this.#load();
  }

  /**
   * Another language: the same entry in history, its URL saying the language. The API's links stay as they are
   * (the board asks for a language by `Accept-Language`, never in a link).
   */
  #language(/** @type {string} */ lang) {
    this.#s = { ...this.#s, lang };
    history.replaceState(history.state, '', this.#href(this.#s));
    void this.#load();
  }

  /** The document's title on a job page ('' puts the page's own back). */
  #setTitle(/** @type {string} */ title) {
    if (title) {
      this.#title ||= document.title;
      document.title = title;
    } else if (this.#title) {
      document.title = this.#title;
      this.#title = '';
    }
  }

  /** The form's filters, applied when they differ from the ones shown (a new search starts at page 1). */
  #apply() {
    const data = new FormData(/** @type {HTMLFormElement} */ (this.#el.form));
    /** @type {Filters} */
    const f = {};
    for (const n of PARAMS) {
      const v = data
        .getAll(n)
        .map((x) => String(x).trim())
        .filter(Boolean)
        .join(',');
      if (v) f[n] = v;
    }
    if (JSON.stringify(f) !== JSON.stringify(this.#s.f)) this.#go({ f, page: 1, job: '' });
  }

  /** Back from a job page: to the list entry it came from (its page and cursor), or to the list. */
  #back() {
    const list = this.getAttribute('list-url');
    this.#focus = `a[data-id="${CSS.escape(this.#s.job)}"]`;
    if (history.state?.fromList) history.back();
    else if (list) location.assign(list);
    else this.#go({ job: '' });
  }

  /**
   * GET from the API with the board's key and language; the body (text for JSON-LD), or an ApiError.
   * @param {string} url
   * @param {AbortSignal} signal
   * @param {string} [accept]
   */
  async #get(url, signal, accept = 'application/json') {
    let response;
    try {
      response = await fetch(url, {
        signal,
        headers: {
          Authorization: `Bearer ${this.getAttribute('key') ?? ''}`,
          Accept: accept,
          'Accept-Language': this.#s.lang,
        },
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ApiError(this.#t.unreachable);
    }
    const text = await response.text();
    if (response.ok) return accept === 'application/json' ? JSON.parse(text) : text;
    let body;
    try {
      body = JSON.parse(text);
    } catch {}
    throw new ApiError(
      body?.message ?? `HTTP ${response.status}`,
      response.status,
      response.headers.get('Retry-After'),
      body?.errors,
      body?.closed_at,
    );
  }

  /** The listing's URL for the state: the link followed to it, or the filters and the page. */
  #listUrl() {
    if (this.#link) return this.#link;
    const url = new URL(this.#api(''));
    const p = url.searchParams;
    const shown = this.#shown;
    p.set('per_page', this.getAttribute('per-page') ?? '15');
    for (const n of PARAMS) if (this.#s.f[n]) p.set(n, this.#s.f[n]);
    const facets = FACETS.filter((n) => shown.includes(n));
    if (facets.length) p.set('facets', facets.join(','));
    p.set('include', 'pay,workplace,locations');
    if (this.#s.page > 1) p.set('page', String(this.#s.page));
    return url.href;
  }

  async #load() {
    this.#abort?.abort();
    this.#abort = new AbortController();
    const { signal } = this.#abort;
    const el = this.#el;
    const t = this.#t;
    const job = this.#s.job;
    this.#texts();
    el.content.setAttribute('aria-busy', 'true');
    el.status.textContent = t.loading;
    el.wait.textContent = t.loading;
    try {
      if (job) {
        const url = this.#api(`/${encodeURIComponent(job)}`);
        const [body, posting] = await Promise.all([
          this.#get(`${url}?include=pay,workplace,locations`, signal),
          this.#get(url, signal, 'application/ld+json'),
        ]);
        this.#job(body, posting);
      } else this.#list(await this.#get(this.#listUrl(), signal));
    } catch (error) {
      if (signal.aborted) return;
      // A vacancy of the vendor's that has closed, expired or been deleted: the API says so (410), not "not found".
      if (job && error instanceof ApiError && error.status === 410)
        await this.#closed(error.closedAt, signal);
      else this.#error(error instanceof ApiError ? error : new ApiError(String(error)));
    } finally {
      if (!signal.aborted) {
        el.content.removeAttribute('aria-busy');
        el.wait.remove();
        el.main.hidden = false;
      }
    }
    const focus = this.#focus && this.shadowRoot?.querySelector(this.#focus);
    this.#focus = '';
    if (focus instanceof HTMLElement) focus.focus();
  }

  /** The texts of the parts that stay, in the board's language; which filters show; the job page hides them. */
  #texts() {
    const t = this.#t;
    const el = this.#el;
    el.board.lang = this.#s.lang;
    el.langs.setAttribute('aria-label', t.language);
    for (const b of el.langs.children) b.setAttribute('aria-pressed', String(b.lang === this.#s.lang));
    el.form.setAttribute('aria-label', t.filters);
    el.form.hidden = !!this.#s.job;
    el.fold.hidden = !!this.#s.job;
    el.skip.hidden = !!this.#s.job;
    el.skip.textContent = t.skip;
    const active = PARAMS.filter((n) => this.#s.f[n]).length;
    el.fold.textContent = active ? `${t.fold} (${active})` : t.fold;
    el.form.querySelector('button').textContent = t.show;
    const shown = this.#shown;
    for (const field of el.form.querySelectorAll('[data-f]')) {
      const name = /** @type {HTMLElement} */ (field).dataset.f ?? '';
      const input = field.querySelector('input,select');
      const caption = field.querySelector('span,legend');
      if (caption) caption.textContent = t[/** @type {'q'} */ (input?.name ?? name)];
      if (CHOICES.includes(name)) continue;
      /** @type {HTMLElement} */ (field).hidden = !shown.includes(name);
      if (input && input.name !== 'type')
        /** @type {HTMLInputElement} */ (input).value = this.#s.f[input.name] ?? '';
    }
  }

  /** The choices, with the API's counts when it gave them (a chosen code it did not count shows 0). */
  #facets(/** @type {Record<string, Facet[]> | undefined} */ facets = {}) {
    const t = this.#t;
    const form = this.#el.form;
    const active = this.shadowRoot?.activeElement;
    const refocus =
      active instanceof HTMLInputElement && active.type === 'checkbox'
        ? `input[name="${active.name}"][value="${CSS.escape(active.value)}"]`
        : '';
    const count = (/** @type {Facet | undefined} */ x) => (facets.type ? ` (${x?.count ?? 0})` : '');
    const select = /** @type {HTMLSelectElement} */ (form.querySelector('select'));
    select.replaceChildren(
      h('option', { value: '' }, t.any),
      ...t.types.map((label, i) => {
        const x = facets.type?.find((f) => f.code === i + 1);
        return h('option', { value: i + 1 }, `${x?.label ?? label}${count(x)}`);
      }),
    );
    select.value = this.#s.f.type ?? '';
    const shown = this.#shown;
    for (const name of CHOICES) {
      const field = /** @type {HTMLFieldSetElement} */ (form.querySelector(`[data-f=${name}]`));
      const list = facets[name];
      field.hidden = !list || !shown.includes(name);
      if (!list) continue;
      const chosen = (this.#s.f[name] ?? '').split(',').filter(Boolean);
      const items = [
        ...list,
        ...chosen
          .filter((c) => !list.some((x) => x.code === c))
          .map((code) => ({ code, label: code, count: 0 })),
      ];
      // No choice to offer (no vacancy matches, none chosen): no heading over nothing.
      if (!items.length) field.hidden = true;
      /** @type {HTMLElement} */ (field.lastElementChild).replaceChildren(
        ...items.map((x) =>
          h(
            'label',
            {},
            h('input', { type: 'checkbox', name, value: x.code, checked: chosen.includes(String(x.code)) }),
            h('span', {}, h('bdi', {}, x.label), ` (${x.count})`),
          ),
        ),
      );
    }
    if (refocus) /** @type {HTMLElement | null} */ (form.querySelector(refocus))?.focus();
  }

  #company(/** @type {string} */ name) {
    this.#el.company.textContent = name;
  }

  /** The link to a job page: the vendor's URL for it (`job-url`, `{id}` replaced), or this page's. */
  #jobLink(/** @type {{ id: number, title: string }} */ v) {
    const at = this.getAttribute('job-url');
    const id = String(v.id);
    return h(
      'a',
      {
        href: at ? at.replaceAll('{id}', encodeURIComponent(id)) : this.#href({ ...this.#s, job: id }),
        part: 'link',
        dir: 'auto',
        'data-id': id,
        onclick: (/** @type {MouseEvent} */ e) => {
          if (at || !plainClick(e)) return;
          e.preventDefault();
          this.#focus = 'h3';
          this.#go({ job: id });
        },
      },
      v.title,
    );
  }

  #list(/** @type {any} */ body) {
    const t = this.#t;
    const s = this.#s;
    const p = body.pagination;
    this.#company(body.company);
    this.#facets(body.facets);
    this.#jsonLd('');
    this.#noindex(false);
    this.#setTitle('');
    this.#el.status.textContent = `${t.found(p.total)} · ${t.page(p.current_page, p.last_page)}`;
    const filtered = PARAMS.some((n) => s.f[n]);
    /** Page links: the API's (opaque, with a cursor) when followed in place; this page's URL for a new tab. */
    const pageLink = (
      /** @type {string | null} */ link,
      /** @type {number} */ page,
      /** @type {string} */ text,
      /** @type {string} */ rel,
    ) =>
      link &&
      h(
        'a',
        {
          href: this.#href({ ...s, page }),
          rel,
          part: 'page-link',
          onclick: (/** @type {MouseEvent} */ e) => {
            if (!plainClick(e)) return;
            e.preventDefault();
            this.#focus = '[role=status]';
            this.#go({ page }, link);
          },
        },
        text,
      );
    this.#show(
      body.data.length
        ? h(
            'ul',
            { part: 'list' },
            body.data.map((/** @type {any} */ v) =>
              h(
                'li',
                { part: 'item' },
                h('h3', {}, this.#jobLink(v)),
                h(
                  'p',
                  { class: 'm', part: 'meta' },
                  this.#meta([this.#cities(v), v.type], v, t.deadline, v.deadline),
                ),
              ),
            ),
          )
        : h(
            'div',
            { part: 'empty' },
            h('p', {}, filtered ? t.noMatch : t.none),
            filtered && this.#clearButton(),
          ),
      (p.prev_page_url || p.next_page_url) &&
        h(
          'nav',
          { 'aria-label': t.pages, part: 'pages' },
          pageLink(p.prev_page_url, p.current_page - 1, t.prev, 'prev'),
          pageLink(p.next_page_url, p.current_page + 1, t.next, 'next'),
        ),
    );
  }

  /**
   * A vacancy's line of facts: `labels`, its workplace (once: Remote is a type too), its pay unless the line under it
   * says it (a job page's), then the deadline — each in a `<bdi>` of its own, so that none turns the others around.
   */
  #meta(
    /** @type {string[]} */ labels,
    /** @type {any} */ v,
    /** @type {string} */ caption,
    /** @type {string} */ deadline,
    pay = true,
  ) {
    const place = this.#t.places[/** @type {'onsite'} */ (v.workplace)];
    const parts = [...new Set([...labels, place]), pay && this.#pay(v)].filter(Boolean);
    return [...parts.flatMap((part) => [h('bdi', {}, part), ' · ']), `${caption}: `, h('bdi', {}, deadline)];
  }

  /**
   * A vacancy's cities (the API's `locations`, its `city` first): every one on the job page, the first two and how many
   * more in the list ("Bakı, Gəncə +2").
   */
  #cities(/** @type {any} */ v, all = false) {
    const names = (v.locations ?? []).map((/** @type {{ label: string }} */ l) => l.label);
    if (names.length < 2) return v.city;
    const shown = all ? names : names.slice(0, 2);
    return `${shown.join(', ')}${names.length > shown.length ? ` +${names.length - shown.length}` : ''}`;
  }

  /**
   * A vacancy's pay in the board's language — Intl.NumberFormat's amount or range with the currency's code — and what
   * it is paid per (`1.000–1.500 AZN / ay`, `AZN 1,000–1,500 a month`); empty when it is negotiable or not given.
   */
  #pay(/** @type {any} */ v) {
    const { salary: one, salary_min: min, salary_max: max, salary_currency: currency } = v;
    if (!currency || (one == null && min == null)) return '';
    const f = new Intl.NumberFormat(this.#s.lang, {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      maximumFractionDigits: 0,
    });
    const amount = one != null ? f.format(one) : min === max ? f.format(min) : f.formatRange(min, max);
    const per = this.#t.per[/** @type {'month'} */ (v.salary_period)];
    return per ? `${amount} ${per}` : amount;
  }

  /** The content in place of what was there (a part left out is `null` or `false`). */
  #show(/** @type {(Node | null | false)[]} */ ...parts) {
    this.#el.content.replaceChildren(...parts.filter((part) => part instanceof Node));
  }

  #clearButton() {
    return h(
      'button',
      {
        type: 'button',
        part: 'button',
        onclick: () => {
          this.#focus = '[role=status]';
          this.#go({ f: {}, page: 1, job: '' });
        },
      },
      this.#t.clear,
    );
  }

  /** The job page's link back to the list: the entry it came from (`#back`), or the list's address. */
  #backLink() {
    return h(
      'a',
      {
        href: this.getAttribute('list-url') ?? this.#href({ ...this.#s, job: '' }),
        part: 'back',
        onclick: (/** @type {MouseEvent} */ e) => {
          if (!plainClick(e)) return;
          e.preventDefault();
          this.#back();
        },
      },
      this.#t.back,
    );
  }

  #job(/** @type {any} */ body, /** @type {string} */ posting) {
    const t = this.#t;
    const v = body.data;
    this.#company(body.company);
    this.#jsonLd(posting);
    this.#noindex(false);
    // The document's title has no element to isolate a string in: U+2068 FSI … U+2069 PDI do it.
    this.#setTitle(`\u2068${v.title}\u2069 — \u2068${body.company}\u2069`);
    this.#el.status.textContent = '';
    const salary = this.#pay(v);
    this.#show(
      this.#backLink(),
      h(
        'article',
        { part: 'job' },
        h('h3', { tabindex: -1, dir: 'auto' }, v.title),
        h(
          'p',
          { class: 'm', part: 'meta' },
          this.#meta([v.category, this.#cities(v, true), v.type], v, t.deadline, v.deadline, false),
        ),
        h('p', { dir: 'auto' }, v.description),
        ['requirements', 'responsibilities'].map(
          (n) => v[n] && [h('h4', {}, t[/** @type {'requirements'} */ (n)]), h('p', { dir: 'auto' }, v[n])],
        ),
        // The pay when it is stated (its amount says whether it is a range), else its type (Negotiable).
        h('p', { part: 'salary' }, `${t.salary}: `, h('bdi', {}, salary || v.salary_type)),
        h('p', {}, h('a', { href: v.url, rel: 'noopener', part: 'apply' }, t.apply)),
      ),
    );
  }

  /**
   * The job page of a vacancy that has closed: it says so, and when (the 410's `closed_at`, a date in the board's
   * language), under the company's name as every page — the list's, shown already or asked for (the 410 has none) —
   * with the way back to the list. No JobPosting, and — while it shows — a robots `noindex`, so that search engines
   * drop the page rather than keep a job that is over.
   */
  async #closed(/** @type {string | undefined} */ closedAt, /** @type {AbortSignal} */ signal) {
    const t = this.#t;
    if (!this.#el.company.textContent)
      try {
        this.#company((await this.#get(this.#api('?per_page=1'), signal)).company);
      } catch {}
    if (signal.aborted) return;
    const company = this.#el.company.textContent;
    const when = closedAt && new Date(closedAt);
    this.#jsonLd('');
    this.#noindex(true);
    this.#setTitle(company ? `${t.closed} — \u2068${company}\u2069` : t.closed);
    this.#el.status.textContent = '';
    this.#show(
      this.#backLink(),
      h(
        'article',
        { part: 'job closed' },
        h('h3', { tabindex: -1 }, t.closed),
        when &&
          !Number.isNaN(when.getTime()) &&
          h(
            'p',
            { class: 'm', part: 'meta' },
            `${t.closedAt}: `,
            h('bdi', {}, new Intl.DateTimeFormat(this.#s.lang, { dateStyle: 'long' }).format(when)),
          ),
      ),
    );
  }

  #error(/** @type {ApiError} */ error) {
    const t = this.#t;
    const wait = error.status === 429 && error.retryAfter;
    const filtered = PARAMS.some((n) => this.#s.f[n]);
    this.#el.status.textContent = '';
    this.#facets();
    this.#jsonLd('');
    this.#noindex(false);
    this.#setTitle('');
    this.#show(
      h(
        'div',
        { role: 'alert', part: 'error' },
        h('p', {}, error.message),
        error.status === 403 && error.message === ORIGIN_REFUSED && h('p', {}, t.origin(location.origin)),
        error.errors &&
          h(
            'ul',
            {},
            Object.values(error.errors)
              .flat()
              .map((m) => h('li', {}, m)),
          ),
        wait && h('p', {}, t.wait(wait)),
        (!error.status || error.status === 429 || error.status >= 500) &&
          h('button', { type: 'button', part: 'button', onclick: () => this.#load() }, t.retry),
        ' ',
        this.#s.job
          ? h('a', { href: this.#href({ ...this.#s, job: '' }), part: 'back' }, t.back)
          : filtered && this.#clearButton(),
      ),
    );
  }

  /** A robots `noindex` in document.head while a closed vacancy's page shows (`false` removes it; the page's own stay). */
  #noindex(/** @type {boolean} */ on) {
    const meta = document.head.querySelector('meta[name=robots][data-vacancy-board]');
    if (!on) meta?.remove();
    else if (!meta)
      document.head.append(h('meta', { name: 'robots', content: 'noindex', 'data-vacancy-board': '' }));
  }

  /** The job page's JobPosting in document.head, for search engines: the API's body as it is ('' removes it). */
  #jsonLd(/** @type {string} */ posting) {
    let script = document.head.querySelector('script[data-vacancy-board]');
    if (!posting) return script?.remove();
    script ??= document.head.appendChild(
      h('script', { type: 'application/ld+json', 'data-vacancy-board': '' }),
    );
    // textContent, never innerHTML: the document is data (and the API writes `<` as \u003c besides).
    script.textContent = posting;
  }
}

if (!customElements.get('vacancy-board')) customElements.define('vacancy-board', VacancyBoard);
