// Playset live preview: draws the page from /api/state and keeps it current from the
// server-sent events on /events. Plain script, no build step. Content text only ever goes
// into the page as text (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
const store = window.localStorage;
let state = null;
let lang = store.getItem("playset.lang") || null; // a language code, or "all"
let shape = ""; // what the page's structure was built from
let toastTimer = 0;
const faces = new Map(); // image key -> {img, figure, tile, version}
const BLEED_MM = 3;
// A document's page size before it is known (the page of its first image): an A4 rulebook
// page, an A1 poster. The image's own size replaces it once it has loaded.
const DOC_PAGE = { rulebook: [210, 297], board: [594, 841] };
// A build makes the tiles of each deck up to those on screen at once, and the others a few
// hundred at a time after it, when the page is idle, each batch in a grid of its own (laid
// out once): 6,000 tiles took seconds to make and lay out before the first image was even
// asked for, and again each time the findings changed. Both are multiples of 1–6, the
// tiles a row holds: full rows between grids.
const FIRST_TILES = 60;
const MORE_TILES = 240;
let anchor = null; // the tile at the top of the screen when the page is built again
const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 0));
let later = null; // decks whose other tiles are still to make: {section, index, from}
let tilesQueued = false; // a batch waits for the page to be idle

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

// Version 0 is "not drawn yet": the request draws it, and that first drawing is version 1.
const effective = (version) => Math.max(version || 0, 1);
const imageUrl = (key, version) =>
  "/img/" + key.split("/").map(encodeURIComponent).join("/") + "?v=" + effective(version);

function shownLangs() {
  const all = state.game.languages;
  return lang === "all" ? all : [all.includes(lang) ? lang : all[0]];
}

function pick(localized, code) {
  if (!localized) return "";
  return localized[code] || localized[state.game.languages[0]] || "";
}

function shortWhere(d) {
  // file:line:col, the file relative to the game folder when it lies inside it.
  const root = state.game ? state.game.root.replace(/\/$/, "") + "/" : "";
  const file = root && d.file.startsWith(root) ? d.file.slice(root.length) : d.file;
  return `${file}:${d.line}:${d.col}`;
}

function diagList(list) {
  if (!list || !list.length) return null;
  return el(
    "ul",
    { class: "diags" },
    list.map((d) =>
      el(
        "li",
        { class: "diag " + d.severity },
        el("span", { class: "code", text: d.code }),
        d.message,
        el("span", {
          class: "where",
          text: shortWhere(d),
          title: d.where + " (click to copy)",
          onclick: () => navigator.clipboard && navigator.clipboard.writeText(d.where),
        }),
      ),
    ),
  );
}

function worst(list) {
  if (!list || !list.length) return null;
  if (list.some((d) => d.severity === "error")) return "error";
  return list.some((d) => d.severity === "warning") ? "warning" : "info";
}

function face(info, label, tile, size, page) {
  if (!info) return null;
  // An image is asked for (and so drawn) only when it comes near the screen: the preview
  // draws card faces, boards and rulebook pages on request, not all at start (thousands of
  // cards, hundreds of rulebook pages).
  const img = el("img", {
    class: "face",
    alt: label,
    "data-key": info.key,
    "data-version": effective(info.version),
    loading: size || page ? "lazy" : null,
    decoding: "async",
  });
  if (page) {
    // A board's or rulebook's page: its width is the page's style, its height follows
    // from its size in mm before it loads (so only the pages on screen are asked for),
    // and from the image once there.
    img.style.aspectRatio = `auto ${page[0]} / ${page[1]}`;
  }
  const figure = el("figure", { class: "waiting" }, img, label ? el("figcaption", { text: label }) : null);
  if (size) {
    // Cards keep their printed proportions to one another: width in mm × the zoom; the
    // height too before the image is there, so that only the faces on screen are asked for.
    img.style.setProperty("--w", size[0] + 2 * BLEED_MM);
    img.style.setProperty("--h", size[1] + 2 * BLEED_MM);
    img.classList.add("sized");
  }
  img.src = imageUrl(info.key, info.version); // after `loading`: a lazy image waits
  if (size && $("trim").checked) {
    // The trim line: where the cutter goes (the image carries the 3 mm bleed around it).
    const [w, h] = size;
    const x = (100 * BLEED_MM) / (w + 2 * BLEED_MM);
    const y = (100 * BLEED_MM) / (h + 2 * BLEED_MM);
    const line = el("div", { class: "trim" });
    line.style.inset = `${y}% ${x}%`; // CSSOM, which the page's CSP allows (no inline styles)
    figure.append(line);
  }
  img.addEventListener("load", () => figure.classList.remove("stale", "waiting"));
  img.addEventListener("error", () => figure.classList.remove("waiting"));
  if (info.error) figure.append(el("div", { class: "drawerror", text: info.error }));
  faces.set(info.key, { img, figure, tile, version: effective(info.version) });
  return figure;
}

function cardTile(card, deck) {
  const tile = el("div", { class: "tile", id: "tile-" + card.place, "data-place": card.place });
  const langs = shownLangs();
  const many = langs.length > 1;
  const row = el("div", { class: "faces" });
  const backs = $("backs").checked && card.back;
  const trim = deck.size_mm;
  for (const code of langs) {
    const front = many ? code + (backs ? " · front" : "") : backs ? "front" : "";
    row.append(face(card.front[code], front, tile, trim));
    if (backs) row.append(face(card.back[code], many ? code + " · back" : "back", tile, trim));
  }
  const name = pick(card.name, langs[0]);
  tile.append(
    row,
    el(
      "div",
      { class: "caption" },
      el("div", {}, el("b", { text: name }), " ", el("span", { class: "id", text: card.id })),
      card.copies > 1 ? el("span", { class: "copies", text: "×" + card.copies }) : null,
    ),
  );
  const list = state.placed[card.place];
  const level = worst(list);
  if (level) tile.classList.add("has-" + level);
  if ((list || []).some((d) => d.severity === "error" && /^[YS]/.test(d.code))) {
    // The file does not load as saved: the images are its last good version.
    row.append(el("div", { class: "held", text: "last good version", title: "The saved file does not load; fix it and the card is drawn again" }));
  }
  tile.append(diagList(list) || "");
  return tile;
}

function deckSection(deck, index) {
  const langs = shownLangs();
  const total = deck.cards.reduce((n, c) => n + c.copies, 0);
  const section = el(
    "section",
    { class: "section", id: deck.place },
    el(
      "header",
      {},
      el("h2", { text: pick(deck.name, langs[0]) || deck.id }),
      el(
        "span",
        { class: "meta" },
        `${deck.cards.length} cards · ${total} printed · ${deck.size_mm.join(" × ")} mm · `,
        el("code", { text: deck.file }),
        " · layouts ",
        deck.layouts.map((name, i) => [i ? ", " : "", el("code", { text: name })]),
      ),
    ),
  );
  const deckDiags = diagList(state.placed[deck.place]);
  if (deckDiags) section.append(el("div", { class: "deckdiags" }, deckDiags));
  const grid = el("div", { class: "grid" });
  if ($("backs").checked && deck.back[langs[0]]) {
    const tile = el("div", { class: "tile back" });
    const row = el("div", { class: "faces" });
    const trim = deck.size_mm;
    for (const code of langs) row.append(face(deck.back[code], langs.length > 1 ? code : "", tile, trim));
    tile.append(row, el("div", { class: "caption" }, el("b", { text: "Back" }), el("span", { class: "id", text: "every card" })));
    grid.append(tile);
  }
  const made = tilesNow(deck, index, grid.childElementCount);
  for (const card of deck.cards.slice(0, made)) grid.append(cardTile(card, deck));
  if (deck.cards.length > made) later.push({ section, index, from: made });
  section.append(grid);
  const found = state.placed[deck.place] || deck.cards.some((card) => state.placed[card.place]);
  if (!found) section.classList.add("quiet"); // hidden under "Only problems"
  return section;
}

function documentSection(doc) {
  const langs = shownLangs();
  docShapes.set(doc.place, docShape(doc));
  const title = doc.kind === "rulebook" ? "Rulebook" : pick(doc.name, langs[0]) || doc.id;
  const section = el(
    "section",
    { class: "section " + doc.kind, id: doc.place },
    el("header", {}, el("h2", { text: title }), doc.file ? el("span", { class: "meta" }, el("code", { text: doc.file })) : null),
  );
  const list = diagList(state.placed[doc.place]);
  if (list) section.append(el("div", { class: "deckdiags" }, list));
  else section.classList.add("quiet");
  for (const code of langs) {
    const versions = doc.pages[code];
    const sizes = (doc.sizes && doc.sizes[code]) || [];
    const pages = el("div", { class: "pages" });
    const label = (i) => (langs.length > 1 ? code + " · " : "") + (doc.kind === "board" ? "board" : "p. " + (i + 1));
    if (versions === null || versions === undefined) {
      // Not drawn yet: its first page, asked for when it comes near the screen, has the
      // preview make the document (the page then hears of its other pages).
      const key = `${doc.place}/${code}/1`;
      pages.append(face({ key, version: 0 }, label(0), section, null, DOC_PAGE[doc.kind]));
    } else {
      versions.forEach((version, i) => {
        const key = `${doc.place}/${code}/${i + 1}`;
        pages.append(face({ key, version }, label(i), section, null, sizes[i] || DOC_PAGE[doc.kind]));
      });
    }
    if (doc.errors[code]) pages.append(el("div", { class: "drawerror static", text: doc.errors[code] }));
    section.append(pages);
  }
  return section;
}

function nav() {
  const links = [];
  const placed = state.placed;
  const badge = (list) => {
    const level = worst(list);
    return level ? el("span", { class: "badge " + level, text: list.length }) : null;
  };
  const decks = state.sections.filter((s) => s.kind === "deck");
  if (decks.length) links.push(el("div", { class: "group", text: "Decks" }));
  for (const deck of decks) {
    const list = [...(placed[deck.place] || []), ...deck.cards.flatMap((c) => placed[c.place] || [])];
    links.push(
      el("a", { href: "#" + deck.place }, el("span", { text: pick(deck.name, shownLangs()[0]) || deck.id }),
        badge(list) || el("span", { class: "n", text: deck.cards.length })),
    );
  }
  const docs = state.sections.filter((s) => s.kind !== "deck");
  if (docs.length) links.push(el("div", { class: "group", text: "Print" }));
  for (const doc of docs) {
    const name = doc.kind === "rulebook" ? "Rulebook" : pick(doc.name, shownLangs()[0]) || doc.id;
    links.push(el("a", { href: "#" + doc.place }, el("span", { text: name }), badge(placed[doc.place])));
  }
  if (placed.game && placed.game.length) {
    links.unshift(el("a", { href: "#game" }, el("span", { text: "Game files" }), badge(placed.game)));
  }
  $("nav").replaceChildren(...links);
}

function langButtons() {
  const all = state.game.languages;
  if (!lang || (lang !== "all" && !all.includes(lang))) lang = all[0];
  const choose = (code) => () => {
    lang = code;
    store.setItem("playset.lang", code);
    build(true);
  };
  $("langs").replaceChildren(
    ...all.map((code) => el("button", { type: "button", role: "radio", "aria-checked": String(lang === code), onclick: choose(code), text: code })),
    el("button", { type: "button", role: "radio", "aria-checked": String(lang === "all"), onclick: choose("all"), title: "Every language side by side", text: "All" }),
  );
}

function structure() {
  // What decides the page's elements (not the image versions). A board's or rulebook's
  // pages are its own section's (`docShape`): made when the page asks for its first one,
  // they change that section only, not the thousands of card tiles before it.
  return JSON.stringify([
    lang, $("backs").checked, state.game && state.game.languages, state.placed,
    state.sections.map((s) => [s.place, s.cards ? s.cards.map((c) => [c.id, c.name, c.copies]) : s.file,
      s.cards ? [s.name, s.file, s.back && Object.values(s.back).map((b) => b && b.error)] : s.name,
      s.cards ? s.cards.map((c) => Object.values(c.front).map((f) => f && f.error)) : null]),
  ]);
}

const docShapes = new Map(); // document place -> what its section was built from

function docShape(doc) {
  return JSON.stringify([lang, pageCounts(doc), doc.sizes, doc.errors]);
}

function documentsAgain() {
  // Each board or rulebook whose pages (count, sizes) or error changed: its section alone
  // built again, its images asked for again as they come near the screen.
  for (const doc of state.sections) {
    if (doc.cards) continue;
    const shape = docShape(doc);
    const old = document.getElementById(doc.place);
    if (docShapes.get(doc.place) === shape || !old) continue;
    for (const img of old.querySelectorAll("img.face")) faces.delete(img.dataset.key);
    old.replaceWith(documentSection(doc));
  }
}

function pageCounts(doc) {
  // A document's pages in each language (null: not made yet); their versions are news
  // for `update`, not a new structure.
  return Object.fromEntries(Object.entries(doc.pages).map(([code, v]) => [code, v ? v.length : null]));
}

function build(force) {
  if (!state) return;
  if (!state.game) {
    $("main").replaceChildren(el("section", { class: "section", id: "game" }, el("h2", { text: "The game does not load" }), diagList(state.placed.game) || ""));
    counts();
    return;
  }
  const now = structure();
  if (!force && now === shape) {
    documentsAgain();
    return update();
  }
  const scroll = window.scrollY;
  anchor = shape === "" ? null : topTile();
  if (anchor) anchor.deck = state.sections.findIndex((s) => s.cards && s.cards.some((c) => c.place === anchor.place));
  // in steps unless the screen shows what the first tiles may not reach (then all at once)
  later = shape === "" || (anchor && anchor.deck >= 0) || scroll < window.innerHeight ? [] : null;
  document.title = `${pick(state.game.title, shownLangs()[0])} · Playset preview`;
  $("title").textContent = pick(state.game.title, shownLangs()[0]) || state.game.id;
  $("root").textContent = state.game.folder || state.game.root;
  langButtons();
  faces.clear();
  const parts = [];
  if (state.placed.game && state.placed.game.length) {
    parts.push(el("section", { class: "section", id: "game" }, el("header", {}, el("h2", { text: "Game files" })), el("div", { class: "deckdiags" }, diagList(state.placed.game))));
  }
  state.sections.forEach((section, index) => parts.push(section.kind === "deck" ? deckSection(section, index) : documentSection(section)));
  shape = now;
  $("main").replaceChildren(...parts);
  nav();
  counts();
  const tile = anchor && anchor.deck >= 0 && document.getElementById("tile-" + anchor.place);
  if (tile) window.scrollBy(0, tile.getBoundingClientRect().top - anchor.top);
  else window.scrollTo(0, scroll);
  queueTiles();
}

function queueTiles() {
  if (tilesQueued || !later || !later.length) return;
  tilesQueued = true;
  idle(() => {
    tilesQueued = false;
    moreTiles();
  });
}

function topTile() {
  // The card tile at the top of the screen and how far down it is.
  const left = $("main").getBoundingClientRect().left + 40;
  for (let y = 80; y < window.innerHeight; y += 40) {
    const hit = document.elementFromPoint(left, y);
    const tile = hit && hit.closest(".tile[data-place]");
    if (tile) return { place: tile.dataset.place, top: tile.getBoundingClientRect().top };
  }
  return null;
}

function tilesNow(deck, index, made) {
  // How many of `deck`'s cards a build makes at once (`made` tiles are in its grid already):
  // every one when not in steps or before the tile on screen, else up to a screen past it.
  if (!later || (anchor && index < anchor.deck)) return deck.cards.length;
  let upto = FIRST_TILES;
  if (anchor && index === anchor.deck) {
    const at = deck.cards.findIndex((c) => c.place === anchor.place);
    upto = Math.ceil((made + at + 1 + FIRST_TILES) / FIRST_TILES) * FIRST_TILES;
  }
  return upto - made;
}

function moreTiles() {
  // The next tiles of the last build (a new build replaces `later`), made from the newest
  // state, whose structure is the same.
  if (!later || !later.length) return;
  const part = later[0];
  const deck = state.sections[part.index];
  const end = Math.min(part.from + MORE_TILES, deck.cards.length);
  const grid = el("div", { class: "grid" });
  for (let i = part.from; i < end; i++) grid.append(cardTile(deck.cards[i], deck));
  part.section.append(grid);
  part.from = end;
  if (end >= deck.cards.length) later.shift();
  if (!later.length) later = null;
  queueTiles();
}

function nearTheEnd() {
  // Scrolled near the last tile made: the next ones now, not when the page is idle.
  while (later && later.length) {
    const last = later[0].section.lastElementChild;
    if (last.getBoundingClientRect().bottom > 3 * window.innerHeight) return;
    moreTiles();
  }
}

function update() {
  // Same structure: swap the images whose version went up, flash their tiles.
  const seen = new Set();
  const visit = (info) => {
    if (!info) return;
    const known = faces.get(info.key);
    const version = effective(info.version);
    if (!known || known.version === version) return;
    known.version = version;
    known.figure.classList.add("stale");
    known.img.dataset.version = version;
    known.img.src = imageUrl(info.key, version);
    if (known.tile && !seen.has(known.tile)) {
      seen.add(known.tile);
      known.tile.classList.remove("flash");
      void known.tile.offsetWidth; // restart the animation
      known.tile.classList.add("flash");
    }
  };
  for (const section of state.sections) {
    if (section.cards) {
      Object.values(section.back).forEach(visit);
      for (const card of section.cards) {
        Object.values(card.front).forEach(visit);
        if (card.back) Object.values(card.back).forEach(visit);
      }
    } else {
      for (const [code, versions] of Object.entries(section.pages)) {
        (versions || []).forEach((version, i) => visit({ key: `${section.place}/${code}/${i + 1}`, version }));
      }
    }
  }
  counts();
}

function counts() {
  const c = state.counts || { error: 0, warning: 0 };
  const button = $("counts");
  if (!state.checked) button.replaceChildren("Checking…");
  else if (!c.error && !c.warning) button.replaceChildren("✓ No problems");
  else {
    const parts = [];
    if (c.error) parts.push(el("span", { class: "e", text: `${c.error} error${c.error === 1 ? "" : "s"}` }));
    if (c.warning) parts.push(el("span", { class: "w", text: `${c.warning} warning${c.warning === 1 ? "" : "s"}` }));
    button.replaceChildren(...parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
  }
  const live = $("live");
  if (live.classList.contains("on") || live.classList.contains("busy")) {
    const busy = state.pending > 0;
    live.className = "live " + (busy ? "busy" : "on");
    live.textContent = busy ? `drawing ${state.pending}…` : "live";
  }
  document.body.dataset.revision = state.revision;
}

let lastToast = "";
function toast() {
  const u = state.last_update;
  if (!u || !u.files || !u.files.length) return;
  const text = JSON.stringify(u);
  if (text === lastToast) return;
  const first = lastToast === "";
  lastToast = text;
  if (first) return; // news of a save made before the page opened
  const box = $("toast");
  const name = u.files.map((f) => f.split("/").slice(-2).join("/")).join(", ");
  if (u.error) box.replaceChildren(el("b", { text: "Preview error " }), u.error);
  else box.replaceChildren(el("b", { text: name }), ` · ${u.redrawn.length} drawn, ${u.changed.length} changed${u.queued ? `, ${u.queued} more when shown` : ""} · ${u.seconds.toFixed(2)} s`);
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 3200);
}

function receive(next) {
  state = next;
  build(false);
  toast();
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("open", () => {
    $("live").className = "live on";
    $("live").textContent = "live";
    if (state) counts();
  });
  source.addEventListener("state", (event) => receive(JSON.parse(event.data)));
  source.addEventListener("error", () => {
    $("live").className = "live";
    $("live").textContent = "reconnecting…";
  });
}

function setZoom(value) {
  document.documentElement.style.setProperty("--mm", value / 69 + "px"); // value: a poker card's width
  store.setItem("playset.zoom", value);
}

window.addEventListener("DOMContentLoaded", () => {
  const vision = store.getItem("playset.vision") || "";
  $("vision").value = vision;
  document.body.dataset.vision = vision;
  $("vision").addEventListener("change", (e) => {
    document.body.dataset.vision = e.target.value;
    store.setItem("playset.vision", e.target.value);
  });
  const zoom = store.getItem("playset.zoom");
  if (zoom) $("zoom").value = zoom;
  setZoom($("zoom").value);
  $("zoom").addEventListener("input", (e) => setZoom(e.target.value));
  $("backs").addEventListener("change", () => build(true));
  window.addEventListener("scroll", nearTheEnd, { passive: true });
  $("trim").addEventListener("change", () => build(true));
  $("problems").addEventListener("change", (e) => document.body.classList.toggle("only-problems", e.target.checked));
  $("counts").addEventListener("click", () => {
    $("problems").checked = !$("problems").checked;
    document.body.classList.toggle("only-problems", $("problems").checked);
  });
  fetch("/api/state").then((r) => r.json()).then(receive).finally(connect);
});
