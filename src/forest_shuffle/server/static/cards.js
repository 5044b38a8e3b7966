// The card catalog (from GET /api/cards) and the drawing of cards as tiles.
import { h } from "./dom.js";
import { _, pgettext } from "./i18n.js";

export const SIDES = ["top", "bottom", "left", "right"];
export const ARROWS = { top: "↑", bottom: "↓", left: "←", right: "→", tree: "" };
const SIDE_WORDS = { top: pgettext("side", "top"), bottom: pgettext("side", "bottom"), left: pgettext("side", "left"), right: pgettext("side", "right") };
/** A host card's kind in words (tree, shrub, moor). */
const KIND_WORDS = { tree: pgettext("host", "tree"), shrub: pgettext("host", "shrub"), moor: pgettext("host", "moor") };
/** A host card in words (a card's text: "Oak (tree card)"). */
const KIND_CARD = { tree: _("tree card"), shrub: _("shrub card"), moor: _("moor card") };
/** The score-pad lines in words, by the key of a game's pad_lines. */
const LINE_WORDS = { trees: _("Trees"), top_bottom: _("Top / bottom"), left_right: _("Left / right"), cave: _("Cave"),
  top: _("Top"), bottom: _("Bottom"), moors: _("Moors") };

/** A side of a host in words ("top" in the page's language). */
export function sideWord(side) {
  return SIDE_WORDS[side] || side;
}

/** A host card's kind in words. */
export function kindWord(kind) {
  return KIND_WORDS[kind] || kind;
}

/** A score-pad line in words: the page's for a key it knows, else `fallback` (the server's
 * words), else the key made readable. */
export function lineWords(key, fallback) {
  return LINE_WORDS[key] || fallback || key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** CSS class of a tree symbol: "sym-horse-chestnut". */
export function symClass(symbol) {
  return symbol ? "sym-" + symbol.toLowerCase().replace(/[^a-z]+/g, "-") : "sym-none";
}

/** Species name -> short name (the species' `short_name` of GET /api/cards), filled by
 * every Catalog built; a species' short name is the same in every game that has it. */
const SHORT_NAMES = {};
const SHORT_TAGS = { "pawed animal": "pawed", "cloven-hoofed animal": "hoofed" };
/** Tag -> its noun in the page's language and tree symbol -> its name in that edition
 * (GET /api/cards' `tag_words` and `symbols` in a language other than English). */
const TAG_WORDS = {};
const SYMBOL_WORDS = {};

/** A tag as the page shows it: its noun in the page's language, else the short English. */
export function tagWord(tag) {
  return TAG_WORDS[tag] || SHORT_TAGS[tag] || tag;
}

/** A tree symbol's badge: its name in the page's language's edition. */
export function symbolWord(symbol) {
  return (symbol && SYMBOL_WORDS[symbol]) || symbol;
}
/** Tags that are the symbol of an expansion (drawn as a chip, not among the tags). */
export const EXPANSION_TAGS = { alps: _("Alps"), "woodland edge": _("Woodland Edge") };
/** Tags that say what a host card is (its kind says it already). */
const HOST_TAGS = ["tree", "shrub"];
const IMPLIED_TAGS = { "cloven-hoofed animal": "deer", insect: "butterfly" };
const PART_WORDS = { effect: _("Effect"), bonus: _("Bonus"), permanent: _("Always"), points: _("Points") };

/** The name where space is short, from the catalog data (the name itself if unknown). */
export function shortName(name) {
  return SHORT_NAMES[name] || name;
}

export class Catalog {
  constructor(data) {
    for (const k of Object.keys(TAG_WORDS)) delete TAG_WORDS[k];
    for (const k of Object.keys(SYMBOL_WORDS)) delete SYMBOL_WORDS[k];
    this.cards = data.cards || {};
    this.species = data.species || {};
    for (const sp of Object.values(this.species)) {
      if (sp.name && sp.short_name) SHORT_NAMES[sp.name] = sp.short_name;
      Object.assign(TAG_WORDS, sp.tag_words || {});
    }
    Object.assign(SYMBOL_WORDS, data.symbols || {});
    this.caves = data.caves || []; // Dartmoor's numbered caves [{number, text, provisional}]
    this.provisionalDeck = data.provisional_deck || ""; // what about the deck is assumed
  }

  /** A Dartmoor cave by its number, or null. */
  cave(number) {
    return this.caves.find((c) => c.number === number) || null;
  }

  /** A moor card (Dartmoor): played sideways, two top and two bottom slots. */
  isMoor(id) {
    const c = this.card(id);
    return !!c && c.kind === "moor";
  }

  /** What about a card is assumed (a provisional deck's card), in words; "" if as printed. */
  assumed(id) {
    const c = this.card(id);
    const list = (c && c.assumed) || [];
    return list.length ? _("Provisional deck: assumed {what} (not known from the printed cards).", { what: list.join(", ") }) : "";
  }

  card(id) {
    return this.cards[id] || this.cards[String(id)] || null;
  }

  isTree(id) {
    const c = this.card(id);
    return !!c && c.kind === "tree";
  }

  /** A shrub card: a host with four slots like a tree, but no tree. */
  isShrub(id) {
    const c = this.card(id);
    return !!c && c.kind === "shrub";
  }

  /** A tree, shrub or moor card (played as a host of its own). */
  isHost(id) {
    return this.isTree(id) || this.isShrub(id) || this.isMoor(id);
  }

  isWinter(id) {
    const c = this.card(id);
    return !!c && c.kind === "winter";
  }

  /** [{side, key, name, symbol, sp}] for every half ("tree" for a tree card): `key` is the
   * species' key in `species` (what `halves` of GET /api/cards holds), `name` the name
   * printed on the card (the species' `name`), which is what the page shows. */
  halves(id) {
    const c = this.card(id);
    if (!c || c.kind === "winter") return [];
    const out = [];
    for (const [side, raw] of Object.entries(c.halves || {})) {
      const key = typeof raw === "string" ? raw : raw.species || raw.name;
      const sp = this.species[key];
      const name = (sp && sp.name) || key;
      let symbol = typeof raw === "object" && raw.symbol ? raw.symbol : null;
      if (!symbol && c.symbols) symbol = Array.isArray(c.symbols) ? c.symbols[0] : c.symbols[side];
      if (!symbol) symbol = c.kind === "tree" ? key : c.symbol;
      out.push({ side, key, name, symbol, kind: c.kind, sp: sp || { name, cost: 0, tags: [], positions: [], text: {} } });
    }
    const order = ["tree", "top", "bottom", "left", "right"];
    out.sort((a, b) => order.indexOf(a.side) - order.indexOf(b.side));
    return out;
  }

  half(id, side) {
    return this.halves(id).find((x) => x.side === (side || "tree")) || this.halves(id)[0] || null;
  }

  label(id) {
    if (this.isWinter(id)) return _("Winter");
    const hs = this.halves(id);
    return hs.length ? hs.map((x) => x.name).join(" / ") : _("card {id}", { id });
  }

  /** The full rules text of a card as plain lines (used for title tooltips). */
  text(id) {
    if (this.isWinter(id)) return _("Winter card: the game ends when the third one appears.");
    const lines = [];
    for (const half of this.halves(id)) {
      const sp = half.sp;
      const where = half.side === "tree" ? KIND_CARD[half.kind] || kindWord(half.kind) : _("{side} half", { side: sideWord(half.side) });
      lines.push(_("{name} ({where}) · cost {cost} · {tags} · symbol {symbol}", { name: half.name, where, cost: sp.cost,
        tags: (sp.tags || []).map(tagWord).join(", ") || _("no tags"), symbol: symbolWord(half.symbol) }));
      for (const [part, word] of Object.entries(PART_WORDS)) {
        if (sp.text && sp.text[part]) lines.push("  " + _("{part}: {text}", { part: word, text: sp.text[part] }));
      }
      if (sp.provisional) lines.push("  " + _("Reading: {text}", { text: sp.provisional }));
    }
    const assumed = this.assumed(id);
    if (assumed) lines.push(assumed);
    return lines.join("\n");
  }
}

/** The icon drawn for each tag of the data (a type symbol, a host's kind, an expansion's
 * symbol): static/icons/{file}.svg, drawn for this project. */
const TAG_ICONS = {
  tree: "tree", shrub: "shrub", moor: "moor", bird: "bird", bat: "bat", butterfly: "butterfly", insect: "insect",
  dragonfly: "dragonfly", amphibian: "amphibian", plant: "plant", mushroom: "mushroom", "pawed animal": "paw",
  "cloven-hoofed animal": "hoof", deer: "deer", mouse: "mouse", alps: "alps", "woodland edge": "woodland-edge",
};
/** A tag in the page's language: the name of its icon for screen readers. */
const TAG_NAMES = {
  tree: pgettext("tag", "tree"), shrub: pgettext("tag", "shrub"), moor: pgettext("tag", "moor"), bird: pgettext("tag", "bird"),
  bat: pgettext("tag", "bat"), butterfly: pgettext("tag", "butterfly"), insect: pgettext("tag", "insect"),
  dragonfly: pgettext("tag", "dragonfly"), amphibian: pgettext("tag", "amphibian"), plant: pgettext("tag", "plant"),
  mushroom: pgettext("tag", "mushroom"), "pawed animal": pgettext("tag", "pawed animal"),
  "cloven-hoofed animal": pgettext("tag", "cloven-hoofed animal"), deer: pgettext("tag", "deer"), mouse: pgettext("tag", "mouse"),
  alps: pgettext("tag", "Alps"), "woodland edge": pgettext("tag", "Woodland Edge"),
};

/** The icon of a tag as an image named in the page's language (null for a tag without
 * one); `alt` "" when the words beside it say it already. */
export function tagIcon(tag, alt = null) {
  const file = TAG_ICONS[tag];
  if (!file) return null;
  const name = TAG_NAMES[tag] || tag;
  return h("img", { class: "icon", src: `/static/icons/${file}.svg`, alt: alt === null ? name : alt, title: name,
    width: "14", height: "14", dataset: { tag } });
}

/** The icon of a tree symbol (static/icons/trees/{symbol}.svg, the symbol's name as in
 * its CSS class: "horse-chestnut"), named "tree symbol" for screen readers (its name is
 * written beside it). */
export function symbolIcon(symbol) {
  const slug = symClass(symbol).slice("sym-".length);
  return h("img", { class: "icon", src: `/static/icons/trees/${slug}.svg`, alt: _("tree symbol"), title: _("tree symbol"),
    width: "14", height: "14", dataset: { symbol: slug } });
}

/** The tags of a species (see tagWords) each with its icon: the icon carries the tag's name
 * in the page's language for screen readers, the short English word beside it is for the
 * eye. */
function tagItems(sp) {
  const tags = shownTags(sp);
  if (!tags.length) return "–";
  return tags.map((t, i) => h("span", { class: "tag" }, tagIcon(t),
    h("span", { "aria-hidden": TAG_ICONS[t] ? "true" : null }, tagWord(t) + (i < tags.length - 1 ? "," : ""))));
}

function shownTags(sp) {
  return (sp.tags || []).filter((t) => !(IMPLIED_TAGS[t] && sp.tags.includes(IMPLIED_TAGS[t]))
    && !EXPANSION_TAGS[t] && !(HOST_TAGS.includes(t) && HOST_TAGS.includes(sp.kind)));
}

/** The tags of a species in short words, without the implied ones, the expansion symbols
 * (see tagChips) and a host's own kind. */
export function tagWords(sp) {
  const tags = shownTags(sp);
  return tags.map(tagWord).join(", ") || "–";
}

/** CSS class of a tag: "tag-woodland-edge". */
function tagClass(tag) {
  return "tag-" + tag.toLowerCase().replace(/[^a-z]+/g, "-");
}

/** The expansion symbols of a species (Alps, Woodland Edge) as small chips. */
export function tagChips(sp) {
  return (sp.tags || []).filter((t) => EXPANSION_TAGS[t]).map((t) =>
    h("span", { class: `tag-chip ${tagClass(t)}`, title: _("{expansion} card", { expansion: EXPANSION_TAGS[t] }) }, EXPANSION_TAGS[t]));
}

/** The short phrases of a species, from "Effect: Draw 1 card; Points: 5 each". */
export function shortParts(sp) {
  const out = {};
  for (const piece of (sp.short || "").split("; ")) {
    const m = piece.match(/^(Effect|Bonus|Permanent effect|Points): (.*)$/);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

export function pointsWords(sp) {
  let short = sp.points_short || shortParts(sp).Points;
  if (!short && sp.short && !sp.short.includes(": ")) short = sp.short;
  if (short) return short.length > 70 ? short.slice(0, 67) + "…" : short;
  const t = sp.text && sp.text.points;
  return t ? (t.length > 60 ? t.slice(0, 57) + "…" : t) : "";
}

function extraWords(sp) {
  const parts = [];
  if (sp.text && sp.text.effect) parts.push(_("effect"));
  if (sp.text && sp.text.bonus) parts.push(_("bonus"));
  if (sp.text && sp.text.permanent) parts.push(_("always"));
  return parts;
}

/** One half (or a whole tree card) drawn inside a tile. */
function halfBlock(half, opts) {
  const sp = half.sp;
  const host = half.side === "tree";
  const where = host ? kindWord(half.kind) : `${ARROWS[half.side]} ${sideWord(half.side)}`;
  const extras = extraWords(sp);
  const tags = tagWords(sp);
  return h("div", { class: `half ${symClass(half.symbol)}`, dataset: { side: half.side } },
    h("div", { class: "half-head" },
      h("span", { class: "cost", title: _("cost {n}", { n: sp.cost }) }, sp.cost),
      h("span", { class: "name" }, opts.short ? shortName(half.name) : half.name)),
    h("div", { class: "half-meta" },
      h("span", { class: `where ${host ? `host-${half.kind}` : ""}` }, host ? tagIcon(half.kind, "") : null, where),
      host && tags === "–" ? null : h("span", { class: "tags" }, tagItems(sp)),
      tagChips(sp)),
    h("div", { class: "half-points" }, pointsWords(sp)),
    h("div", { class: "half-foot" },
      h("span", { class: "symbol" }, half.symbol ? symbolIcon(half.symbol) : null, symbolWord(half.symbol)),
      extras.length ? h("span", { class: "extras" }, extras.map((x) => h("i", {}, x))) : null));
}

/**
 * A card tile: every half with cost, name, tags, where it goes, points and tree symbol.
 * opts: {action, classes, short, badge, onclick, onhover}
 */
export function cardTile(cat, id, opts = {}) {
  const attrs = {
    class: `tile ${opts.classes || ""}`,
    dataset: { card: id, action: opts.action || null },
    title: cat.text(id),
    tabindex: opts.action || opts.onclick ? "0" : null,
    role: opts.action || opts.onclick ? "button" : null,
  };
  if (opts.onclick) attrs.onclick = opts.onclick;
  if (opts.onhover) attrs.onmouseenter = opts.onhover;
  if (cat.isWinter(id)) {
    return h("div", { ...attrs, class: `${attrs.class} winter` }, h("div", { class: "winter-face" }, "❄", h("span", {}, _("Winter"))));
  }
  const halves = cat.halves(id);
  const kind = halves.length > 1 ? "split" : cat.isShrub(id) ? "tree-card shrub-card"
    : cat.isMoor(id) ? "tree-card moor-card" : "tree-card";
  return h("div", { ...attrs, class: `${attrs.class} ${kind}` },
    halves.map((half) => halfBlock(half, opts)),
    provisionalMark(cat, id),
    opts.badge ? h("span", { class: "badge" }, opts.badge) : null);
}

/** Names that the page never breaks inside a word (cards, forests, players: style.css
 * breaks them only at spaces and hyphens). */
export const NAME_SELECTOR = ".name, .dname, .tname, .pname";
/** The smallest share of its font a name is shrunk to. */
const LEAST_FONT = 0.6;

/**
 * Shrink the font of every name under `root` whose longest word is wider than its box, so a
 * long name (a German compound) fits whole instead of being cut or broken mid-word. Two
 * passes of reads then writes (no layout read between writes); a name that fits keeps the
 * font of its style.
 */
export function fitNames(root) {
  const els = [...root.querySelectorAll(NAME_SELECTOR)];
  for (const el of els) if (el.style.fontSize) el.style.fontSize = "";
  for (let pass = 0; pass < 2; pass += 1) {
    const over = [];
    for (const el of els) {
      const wide = el.scrollWidth;
      const room = el.clientWidth;
      if (room > 0 && wide > room + 0.5) over.push([el, room / wide, parseFloat(getComputedStyle(el).fontSize)]);
    }
    if (!over.length) return;
    for (const [el, share, px] of over) {
      const base = parseFloat(el.dataset.fontBase || String(px));
      el.dataset.fontBase = String(base);
      el.style.fontSize = `${Math.max(base * LEAST_FONT, Math.floor(px * share * 10) / 10 - 0.1)}px`;
    }
  }
}

/** The mark of a card of a provisional deck (Dartmoor): what is assumed, on hover and in
 * its title; null for a card as printed. */
export function provisionalMark(cat, id) {
  const assumed = cat.assumed(id);
  return assumed ? h("span", { class: "prov", title: assumed, dataset: { testid: "provisional" } }, _("≈ provisional")) : null;
}

/** What a host card is, in the detail panel. */
const FOUR_SLOTS = { tree: _("a tree card with four slots"), shrub: _("a shrub card with four slots"), moor: _("a moor card with four slots") };

/** The detail panel body: every species on the card with its whole text. */
export function cardDetail(cat, id) {
  if (cat.isWinter(id)) {
    return h("div", { class: "detail-body" }, h("h3", {}, _("❄ Winter card")),
      h("p", {}, _("Laid beside the clearing when drawn (you draw another card instead). The game ends at once when the third winter card appears.")));
  }
  return h("div", { class: "detail-body" },
    h("div", { class: "detail-id" }, _("card #{id}", { id })),
    cat.halves(id).map((half) => {
      const sp = half.sp;
      return h("section", { class: `detail-half ${symClass(half.symbol)}` },
        h("h3", {}, half.side === "tree" ? h("span", { class: "where" }, _("{where}:", { where: kindWord(half.kind) }), " ")
          : h("span", { class: "where" }, `${ARROWS[half.side]} `, _("{where}:", { where: sideWord(half.side) }), " "), half.name),
        h("p", { class: "facts" },
          _("cost {cost} · {tags}", { cost: sp.cost, tags: (sp.tags || []).map(tagWord).join(", ") || _("no tags") }), " · ",
          half.side === "tree" ? (FOUR_SLOTS[half.kind] || FOUR_SLOTS.tree) : _("goes {where}", { where: (sp.positions || []).map(sideWord).join("/") }),
          " · ", h("span", { class: "symbol-chip" }, symbolWord(half.symbol)), " ", tagChips(sp)),
        Object.entries(PART_WORDS).map(([part, word]) =>
          sp.text && sp.text[part] ? h("p", {}, h("b", {}, _("{part}:", { part: word })), " ", sp.text[part]) : null),
        sp.provisional ? h("p", { class: "prov-note" }, h("b", {}, _("Provisional reading:")), " ", sp.provisional) : null);
    }),
    cat.assumed(id) ? h("p", { class: "prov-note" }, cat.assumed(id)) : null);
}
