// The page's words in the reader's language (docs/i18n.md, "The page").
//
// The language: the switch's choice kept in this browser (localStorage), else the first of
// the browser's languages the page speaks, else English. The words: the `page` catalog as
// JSON, /static/words/{lang}.json, generated from the .po files (python -m
// forest_shuffle.i18n.build): {lang, messages: {source: translation | [forms]}, plural:
// {CLDR category: form index}}. A plural form is chosen with Intl.PluralRules, so no
// expression is evaluated here. This module loads the words at its top level (a top-level
// await), so every module that imports it runs with the words in place.
//
// _(text, params), ngettext(singular, plural, n, params), pgettext(context, text, params),
// npgettext(context, singular, plural, n, params):
// the translation (the English source text when there is none) with its named
// placeholders {name} filled from params (ngettext passes n). N_(text) only marks a text
// for the catalog.

/** The languages of the page: code -> the language's own name (shown as is on the switch). */
export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch", zh: "中文" };
/** Where the switch's choice is kept. */
export const LANG_KEY = "forest-shuffle:lang";
/** The value of <html lang> for each language (Simplified Chinese: zh-Hans). */
const HTML_LANG = { en: "en", fr: "fr", de: "de", zh: "zh-Hans" };

/** The supported code a language tag means ("fr-CA" -> "fr", "zh-Hans-CN" -> "zh"), or null. */
export function languageOf(tag) {
  const code = String(tag || "").trim().split(/[-_.@]/)[0].toLowerCase();
  return Object.hasOwn(LANGUAGES, code) ? code : null;
}

/** The language of the page: a kept choice, else the browser's languages, else English. */
export function chooseLanguage(kept, preferred) {
  const own = languageOf(kept);
  if (own) return own;
  for (const tag of preferred || []) {
    const code = languageOf(tag);
    if (code) return code;
  }
  return "en";
}

function keptChoice() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch (err) {
    return null; // no storage: the browser's language
  }
}

/** The page's language (a code of LANGUAGES). */
// Outside a browser (the tests run cards.js under Node) there is no navigator or document:
// English, as in a browser that names no language the page speaks.
const browser = typeof navigator !== "undefined" ? navigator : { languages: [] };
export const lang = chooseLanguage(keptChoice(), browser.languages || [browser.language]);
let words = { lang: "en", plural: { one: 0, other: 1 }, messages: {} };
if (lang !== "en") {
  try {
    const response = await fetch(`/static/words/${lang}.json`);
    if (response.ok) words = await response.json();
  } catch (err) {
    /* the words cannot be loaded: English */
  }
}
const rules = new Intl.PluralRules(HTML_LANG[lang]);
if (typeof document !== "undefined") {
  document.documentElement.lang = HTML_LANG[lang];
  document.documentElement.dataset.lang = lang;
}

/** `text` with its {name} placeholders filled from `params` (others left as they are). */
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (all, key) => (Object.hasOwn(params, key) ? String(params[key]) : all));
}

/** The translation of one message. */
export function _(text, params) {
  const found = words.messages[text];
  return format(typeof found === "string" ? found : text, params);
}

/** Only marks a message for the catalog (translated later with _()). */
export function N_(text) {
  return text;
}

/** The form of `n` in this language (the catalog's index of its plural category). */
function formOf(n) {
  const category = rules.select(Number(n) || 0);
  const plural = words.plural || {};
  return plural[category] ?? plural.other ?? 0;
}

/** A message that depends on a number: the language's own plural form. */
export function ngettext(singular, plural, n, params) {
  const forms = words.messages[singular];
  const text = Array.isArray(forms) ? forms[Math.min(formOf(n), forms.length - 1)] : n === 1 ? singular : plural;
  return format(text, { n, ...(params || {}) });
}

/** A message in a context (the same English words translated apart). */
export function pgettext(context, text, params) {
  const found = words.messages[`${context}\u0004${text}`];
  return format(typeof found === "string" ? found : text, params);
}

/** A message in a context that depends on a number. */
export function npgettext(context, singular, plural, n, params) {
  const forms = words.messages[`${context}\u0004${singular}`];
  const text = Array.isArray(forms) ? forms[Math.min(formOf(n), forms.length - 1)] : n === 1 ? singular : plural;
  return format(text, { n, ...(params || {}) });
}

/** Names joined as the language joins them ("A and B", "A, B et C", "A、B和C"). */
export function listWords(items) {
  try {
    return new Intl.ListFormat(HTML_LANG[lang], { style: "long", type: "conjunction" }).format(items.map(String));
  } catch (err) {
    return items.join(", ");
  }
}

/** Keep a language for this browser and draw the page again in it. */
export function switchTo(code) {
  if (!languageOf(code) || code === lang) return;
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch (err) {
    /* private mode: the choice lasts for this page only */
  }
  location.reload();
}

/** Translate the page's fixed markup: data-i18n (text), data-i18n-title, data-i18n-label
 * (aria-label), and fill every language switch (select[data-lang-switch]). */
export function translateDocument(doc = document) {
  for (const el of doc.querySelectorAll("[data-i18n]")) el.textContent = _(el.dataset.i18n);
  for (const el of doc.querySelectorAll("[data-i18n-title]")) el.title = _(el.dataset.i18nTitle);
  for (const el of doc.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", _(el.dataset.i18nLabel));
  for (const select of doc.querySelectorAll("select[data-lang-switch]")) {
    select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.lang = HTML_LANG[code];
      option.textContent = name;
      option.selected = code === lang;
      return option;
    }));
    select.addEventListener("change", () => switchTo(select.value));
  }
}

if (typeof document !== "undefined") translateDocument();
