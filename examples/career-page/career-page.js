/**
 * A career page on the Vendor Vacancy API (docs/api.md#from-a-web-page): the vendor's active vacancies with a search
 * box, city and category choices showing how many each would give (the API's facets), the type and experience
 * filters — all in the page's URL, so a search can be linked — a page at a time (by the links the API hands out,
 * which carry a cursor), in Azerbaijani or English; and a job page per vacancy, with its schema.org JobPosting put
 * into the page for search engines.
 *
 * A plain ES module for today's browsers: no framework, no build. `config.js` beside it names the API and a
 * publishable key for this page's origin (`vacancy-admin key issue <vendor> --publishable --origin <origin>`).
 */
import { config } from './config.js';

const TEXT = {
  az: {
    search: 'Axtarış',
    city: 'Şəhər',
    category: 'Sahə',
    type: 'Növ',
    any: 'Hamısı',
    types: { 1: 'Tam iş günü', 2: 'Yarım iş günü', 3: 'Uzaqdan', 4: 'Təcrübə' },
    experienceMin: 'Təcrübə, ən az (il)',
    experienceMax: 'Təcrübə, ən çox (il)',
    apply: 'Göstər',
    previous: '← Əvvəlki',
    next: 'Növbəti →',
    page: (current, last) => `Səhifə ${current} / ${last}`,
    found: (total) => `${total} vakansiya`,
    none: 'Uyğun vakansiya yoxdur.',
    deadline: 'Son tarix',
    requirements: 'Tələblər',
    responsibilities: 'Vəzifələr',
    salary: 'Maaş',
    apply_at: 'Müraciət et',
    back: '← Bütün vakansiyalar',
    unreachable: 'API-yə qoşulmaq mümkün olmadı.',
  },
  en: {
    search: 'Search',
    city: 'City',
    category: 'Field',
    type: 'Type',
    any: 'Any',
    types: { 1: 'Full Time', 2: 'Part Time', 3: 'Remote', 4: 'Internship' },
    experienceMin: 'Experience, at least (years)',
    experienceMax: 'Experience, at most (years)',
    apply: 'Show',
    previous: '← Previous',
    next: 'Next →',
    page: (current, last) => `Page ${current} of ${last}`,
    found: (total) => `${total} vacancies`,
    none: 'No vacancy matches.',
    deadline: 'Deadline',
    requirements: 'Requirements',
    responsibilities: 'Responsibilities',
    salary: 'Salary',
    apply_at: 'Apply',
    back: '← All vacancies',
    unreachable: 'The API could not be reached.',
  },
};

/** What the list is filtered by: the API's parameters, as the page's URL carries them. */
const FILTERS = ['q', 'city', 'category', 'type', 'experience_min', 'experience_max'];
/** The filters that are lists of codes (several may be chosen: any of them). */
const CHOICES = ['city', 'category'];

const state = { lang: 'az', filters: {}, pageUrl: undefined };
const app = document.getElementById('app');

/** The language and filters of the page's own URL (`?q=…&city=baku,ganja&lang=en`): a search can be linked. */
function readPageUrl() {
  const search = new URLSearchParams(location.search);
  state.filters = Object.fromEntries(FILTERS.map((name) => [name, search.get(name) ?? '']));
  if (['az', 'en'].includes(search.get('lang'))) state.lang = search.get('lang');
}

/** Writes the language and filters into the page's URL (keeping its `#job/…`), as a new history entry. */
function writePageUrl() {
  const search = new URLSearchParams();
  for (const name of FILTERS) if (state.filters[name]) search.set(name, state.filters[name]);
  search.set('lang', state.lang);
  history.pushState(null, '', `?${search}${location.hash}`);
}

/** An element with attributes and children (text is always text, never HTML). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  element.append(...children.flat().filter((child) => child !== undefined && child !== null));
  return element;
}

/** An API error as the page shows it: the envelope's message, which CORS lets the page read. */
class ApiError extends Error {}

/** GET from the API with the page's key; the envelope's message on an error, a plain one when unreachable. */
async function api(url, accept = 'application/json') {
  let response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${config.key}`, Accept: accept } });
  } catch {
    throw new ApiError(TEXT[state.lang].unreachable);
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(body?.message ?? `HTTP ${response.status}`);
  return body;
}

/** The listing's URL for the current filters and language (page 1). */
function listingUrl() {
  const url = new URL('/vendor/vacancies', config.apiUrl);
  for (const [name, value] of Object.entries(state.filters))
    if (value !== '') url.searchParams.set(name, value);
  // The counts the city and category choices show: each over every other filter.
  url.searchParams.set('facets', CHOICES.join(','));
  url.searchParams.set('lang', state.lang);
  return url.href;
}

/** A link the API handed out, in the current language (the links keep `lang` as it was given). */
function inLanguage(link) {
  const url = new URL(link);
  url.searchParams.set('lang', state.lang);
  return url.href;
}

function showError(error) {
  app.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
}

/**
 * A filter's choices: each code the facet counts, with its count ("Bakı (12)"), and any chosen one it does not (0).
 * A facet counts over every filter but its own, so every choice says what it would give with the others.
 */
function choices(name, text, facet = []) {
  const chosen = (state.filters[name] ?? '').split(',').filter(Boolean);
  const values = [
    ...facet,
    ...chosen
      .filter((code) => !facet.some((value) => value.code === code))
      .map((code) => ({ code, label: code, count: 0 })),
  ];
  return h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, text[name]),
    values.map(({ code, label, count }) =>
      h(
        'label',
        {},
        h('input', { type: 'checkbox', name, value: code, ...(chosen.includes(code) && { checked: '' }) }),
        `${label} (${count})`,
      ),
    ),
  );
}

function filtersForm(text, facets = {}) {
  const { q = '', type = '', experience_min: min = '', experience_max: max = '' } = state.filters;
  const select = h(
    'select',
    { name: 'type' },
    h('option', { value: '' }, text.any),
    ...Object.entries(text.types).map(([code, label]) => h('option', { value: code }, label)),
  );
  select.value = type;
  return h(
    'form',
    {
      role: 'search',
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        state.filters = Object.fromEntries(
          FILTERS.map((name) => [
            name,
            CHOICES.includes(name) ? data.getAll(name).join(',') : String(data.get(name) ?? '').trim(),
          ]),
        );
        state.pageUrl = undefined;
        writePageUrl();
        void showList();
      },
    },
    h('label', {}, text.search, h('input', { name: 'q', type: 'search', maxlength: 100, value: q })),
    choices('city', text, facets.city),
    choices('category', text, facets.category),
    h('label', {}, text.type, select),
    h(
      'label',
      {},
      text.experienceMin,
      h('input', { name: 'experience_min', type: 'number', min: 0, max: 100, value: min }),
    ),
    h(
      'label',
      {},
      text.experienceMax,
      h('input', { name: 'experience_max', type: 'number', min: 0, max: 100, value: max }),
    ),
    h('button', { type: 'submit' }, text.apply),
  );
}

async function showList() {
  const text = TEXT[state.lang];
  document.getElementById('job-posting')?.remove();
  try {
    const page = await api(state.pageUrl ? inLanguage(state.pageUrl) : listingUrl());
    document.getElementById('company').textContent = page.company;
    document.title = page.company;
    const {
      current_page: current,
      last_page: last,
      total,
      next_page_url: next,
      prev_page_url: prev,
    } = page.pagination;
    const go = (url) => () => {
      state.pageUrl = url;
      void showList();
    };
    app.replaceChildren(
      filtersForm(text, page.facets),
      h('p', { class: 'meta' }, text.found(total)),
      page.data.length === 0
        ? h('p', {}, text.none)
        : h(
            'ul',
            { class: 'vacancies' },
            page.data.map((vacancy) =>
              h(
                'li',
                {},
                h('a', { href: `#job/${vacancy.id}` }, vacancy.title),
                h(
                  'div',
                  { class: 'meta' },
                  `${vacancy.city} · ${vacancy.type} · ${text.deadline}: ${vacancy.deadline}`,
                ),
              ),
            ),
          ),
      h(
        'div',
        { class: 'pages' },
        prev ? h('button', { type: 'button', onclick: go(prev) }, text.previous) : null,
        h('span', {}, text.page(current, last)),
        next ? h('button', { type: 'button', onclick: go(next) }, text.next) : null,
      ),
    );
  } catch (error) {
    showError(error);
  }
}

/** The salary as the page shows it: a range, a fixed amount, or the label (negotiable). */
function salaryText(vacancy) {
  if (vacancy.salary !== null) return `${vacancy.salary} (${vacancy.salary_type})`;
  if (vacancy.salary_min !== null)
    return `${vacancy.salary_min}–${vacancy.salary_max} (${vacancy.salary_type})`;
  return vacancy.salary_type;
}

async function showJob(id) {
  const text = TEXT[state.lang];
  const url = new URL(`/vendor/vacancies/${encodeURIComponent(id)}`, config.apiUrl);
  url.searchParams.set('lang', state.lang);
  try {
    // The vacancy to show, and the same vacancy as a JobPosting for search engines.
    const [{ company, data: vacancy }, posting] = await Promise.all([
      api(url.href),
      api(url.href, 'application/ld+json'),
    ]);
    document.getElementById('company').textContent = company;
    document.title = `${vacancy.title} — ${company}`;
    document.getElementById('job-posting')?.remove();
    // textContent, never innerHTML: the document is data, and "</script>" in it stays text.
    const script = h('script', { type: 'application/ld+json', id: 'job-posting' });
    script.textContent = JSON.stringify(posting);
    document.head.append(script);
    app.replaceChildren(
      h('a', { class: 'back', href: '#' }, text.back),
      h(
        'article',
        {},
        h('h2', {}, vacancy.title),
        h(
          'p',
          { class: 'meta' },
          `${vacancy.category} · ${vacancy.city} · ${vacancy.type} · ${text.deadline}: ${vacancy.deadline}`,
        ),
        h('p', {}, vacancy.description),
        vacancy.requirements ? [h('h3', {}, text.requirements), h('p', {}, vacancy.requirements)] : null,
        vacancy.responsibilities
          ? [h('h3', {}, text.responsibilities), h('p', {}, vacancy.responsibilities)]
          : null,
        h('p', {}, `${text.salary}: ${salaryText(vacancy)}`),
        h('p', {}, h('a', { href: vacancy.url, rel: 'noopener' }, text.apply_at)),
      ),
    );
  } catch (error) {
    showError(error);
  }
}

/** The route of the page: `#job/<id>` a job page, anything else the list. */
function route() {
  const job = /^#job\/(\d+)$/.exec(location.hash);
  if (job) void showJob(job[1]);
  else void showList();
}

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => {
    state.lang = button.dataset.lang;
    writePageUrl();
    showLanguage();
    route();
  });
}

/** Marks the page's language: the document's, and its button. */
function showLanguage() {
  document.documentElement.lang = state.lang;
  for (const button of document.querySelectorAll('[data-lang]'))
    button.setAttribute('aria-pressed', String(button.dataset.lang === state.lang));
}

window.addEventListener('hashchange', route);
// Back and forward through searches: the URL says what to show.
window.addEventListener('popstate', () => {
  readPageUrl();
  state.pageUrl = undefined;
  showLanguage();
  route();
});
readPageUrl();
showLanguage();
route();
