// cardsmith studio: the cards gallery's filters and its live updates, and a card page's.
// Filtering reads the data-* attributes the server wrote on each card. When the game
// changes (studio:changed, from studio.js) the script asks /api/cards for the current face
// address of every card and swaps the src of only those whose address changed (their key
// did: the card's printed face may have changed); cards added or removed reload the
// gallery from /cards. No user text is ever put into HTML by this script.
"use strict";
(function () {
  function parse(text, fallback) {
    try { return JSON.parse(text); } catch (e) { return fallback; }
  }

  function controls() {
    const form = document.getElementById("card-filters");
    return form ? Array.from(form.querySelectorAll("input, select")) : [];
  }

  function controlKey(el) {
    return el.id || ("prop:" + (el.dataset.prop || ""));
  }

  function applyFilters() {
    const gallery = document.getElementById("gallery");
    if (!gallery) return;
    const q = (document.getElementById("filter-q") || {value: ""}).value.trim().toLowerCase();
    const type = (document.getElementById("filter-type") || {value: ""}).value;
    const keyword = (document.getElementById("filter-keyword") || {value: ""}).value;
    const props = Array.from(document.querySelectorAll("select[data-filter=prop]"))
      .filter(function (s) { return s.value; })
      .map(function (s) { return [s.dataset.prop, s.value]; });
    const statEl = document.getElementById("filter-stat");
    const stat = statEl ? statEl.value : "";
    const opEl = document.getElementById("filter-op");
    const valueEl = document.getElementById("filter-value");
    const raw = valueEl ? valueEl.value : "";
    const wanted = raw === "" ? null : Number(raw);
    let shown = 0;
    gallery.querySelectorAll("li.gallery-card").forEach(function (li) {
      let ok = true;
      if (type && li.dataset.type !== type) ok = false;
      if (ok && props.length) {
        const have = parse(li.dataset.props, {});
        ok = props.every(function (p) { return have[p[0]] === p[1]; });
      }
      if (ok && keyword) ok = parse(li.dataset.keywords, []).indexOf(keyword) >= 0;
      if (ok && stat) {
        const stats = parse(li.dataset.stats, {});
        if (!(stat in stats)) ok = false;
        else if (wanted !== null && !Number.isNaN(wanted)) {
          const v = stats[stat];
          const op = opEl ? opEl.value : "eq";
          ok = op === "le" ? v <= wanted : op === "ge" ? v >= wanted : v === wanted;
        }
      }
      if (ok && q) {
        const hay = ((li.dataset.name || "") + " " + (li.dataset.text || "")).toLowerCase();
        ok = hay.indexOf(q) >= 0;
      }
      li.hidden = !ok;
      if (ok) shown += 1;
    });
    const count = document.getElementById("cards-count");
    if (count) {
      const total = gallery.querySelectorAll("li.gallery-card").length;
      count.textContent = shown === total ? total + " cards" : shown + " of " + total + " cards";
    }
  }

  async function reloadGallery() {
    const response = await fetch("/cards", {cache: "no-store"});
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.getElementById("cards-view");
    const view = document.getElementById("cards-view");
    if (!fresh || !view) return;
    const kept = {};
    controls().forEach(function (el) { kept[controlKey(el)] = el.value; });
    view.replaceWith(document.importNode(fresh, true));
    controls().forEach(function (el) {
      const key = controlKey(el);
      if (key in kept) el.value = kept[key];
    });
    applyFilters();
  }

  async function refreshGallery() {
    const response = await fetch("/api/cards", {cache: "no-store"});
    if (!response.ok) return;
    const index = await response.json();
    const stale = document.getElementById("cards-stale");
    if (stale) stale.hidden = !index.stale;
    const cards = index.cards || {};
    const items = Array.from(document.querySelectorAll("#gallery li.gallery-card"));
    const names = items.map(function (li) { return li.dataset.name; });
    const fresh = Object.keys(cards);
    const same = names.length === fresh.length && names.every(function (n) { return n in cards; });
    if (!same) { await reloadGallery(); return; }
    items.forEach(function (li) {
      const img = li.querySelector("img");
      const url = cards[li.dataset.name];
      if (img && url && img.getAttribute("src") !== url) img.setAttribute("src", url);
    });
  }

  async function refreshCardPage(view) {
    const response = await fetch("/api/cards", {cache: "no-store"});
    if (!response.ok) return;
    const index = await response.json();
    const url = (index.cards || {})[view.dataset.name];
    const front = document.getElementById("card-front");
    if (!url || (front && front.getAttribute("src") !== url)) window.location.reload();
  }

  document.addEventListener("input", function (e) {
    if (e.target.closest && e.target.closest("#card-filters")) applyFilters();
  });
  document.addEventListener("change", function (e) {
    if (e.target.closest && e.target.closest("#card-filters")) applyFilters();
  });
  document.addEventListener("studio:changed", function () {
    const view = document.getElementById("card-view");
    if (view) { refreshCardPage(view); return; }
    if (document.getElementById("cards-view")) {
      refreshGallery().then(function () { document.body.dataset.cardsUpdated = document.body.dataset.version; });
    }
  });
  applyFilters();
})();
