/**
 * Where the career page finds the API, and its key: edit both for your site. The key is a publishable key issued for
 * this page's origin (`vacancy-admin key issue <vendor> --publishable --origin https://careers.example.az`); it may
 * be public — never put a secret key (`vvk_…`) here: the API refuses it from a browser. (`npm start` serves this page
 * with its own config.js: the local API and a demo key.)
 */
export const config = {
  apiUrl: 'https://api.example.az',
  key: 'vvp_replace_with_your_publishable_key',
};
